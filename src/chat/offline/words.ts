// The offline planner's plain words: those that carry no constraint (a question may hold any of them without the
// planner saying it ignored something) and the numbers it reads as words.

/** Words that trim off the ends of an ignored phrase ("only those with a pool" ignored "with a pool"). */
export const SOFT = new Set(
  (
    "a an the and or but so then also too just only now please pls me my us our i we you it its this that these those them " +
    "there here in on of for to from by about into than as well again still instead some any all each every ones one " +
    "show find get give list search look looking want need can could would you i'm i'd what which are " +
    "lots lot parcels parcel sites site blocks block properties property plots plot results result land is are be"
  ).split(" "),
);

/** Words that are not a constraint: asking, pointing, the things asked for and the tools' own verbs. */
export const FILLER = new Set([
  ...SOFT,
  ...(
    "show find get give list search look looking want need like would could can may might will shall let know see display " +
    "bring pull fetch return keep filter narrow refine limit restrict widen broaden expand extend change make do does did " +
    "have has had having got was were am being been what what's whats which who whose where how why when " +
    "tell describe details detail info information about around near inside across within with over under up down out " +
    "score scores scoring scored rate rating rank ranking assess assessment evaluate evaluation feasibility feasible appraise " +
    "summarise summarize summary overview zoning zone zones zoned hazards hazard constraints transport locate geocode " +
    "map view screen visible area areas suburb suburbs place same last previous above below shown listed ok okay thanks thank " +
    "hi hello hey yes no not any more fewer big bigger biggest large larger largest small smaller smallest good best " +
    "development develop developer potential candidate candidates option options opportunity opportunities available " +
    "nsw sydney new south wales which's i'd i'm can't don't many much number count greater"
  ).split(" "),
]);

const NUMBER_WORDS: Record<string, number> = {
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fifteen: 15,
  twenty: 20,
};

/** A count written in digits or as a word. */
export const COUNT = String.raw`(\d{1,3}|${Object.keys(NUMBER_WORDS).join("|")})`;

export function countOf(s: string): number {
  const w = NUMBER_WORDS[s.toLowerCase()];
  return w ?? Number.parseInt(s, 10);
}

/** "1,200" or "1.5" as a number. */
export const numberOf = (s: string): number => Number(s.replace(/,/g, ""));
