// Stations of the transport oriented development precincts (Housing SEPP 2021 Chapter 5), as NSW Planning lists them.
// Source and date: docs/scoring.md section 5.2. Names are matched without "Station", "metro" or case.

export const TOD_STATIONS: readonly string[] = [
  "Adamstown",
  "Ashfield",
  "Banksia",
  "Berala",
  "Booragul",
  "Canterbury",
  "Cardiff",
  "Corrimal",
  "Croydon",
  "Dapto",
  "Dulwich Hill",
  "Gordon",
  "Gosford",
  "Hamilton",
  "Killara",
  "Kogarah",
  "Kotara",
  "Lidcombe",
  "Lindfield",
  "Marrickville",
  "Morisset",
  "Newcastle Interchange",
  "North Strathfield",
  "North Wollongong",
  "Rockdale",
  "Roseville",
  "St Marys",
  "Teralba",
  "Tuggerah",
  "Turrella",
  "Wiley Park",
  "Woy Woy",
  "Wyong",
];

/** "Ashfield Station", "north strathfield metro station" -> "ashfield", "north strathfield". */
export function stationKey(name: string): string {
  return name
    .toLowerCase()
    .replace(/\b(railway|metro|light rail|station)\b/g, " ")
    .replace(/[^a-z ]/g, " ")
    .replace(/\s+/g, " ")
    .trim();
}

const KEYS = new Set(TOD_STATIONS.map(stationKey));
// Answers by name as given: a pack names few stations, and stationKey's three regular expressions cost more than the rest of a score's policy.
const known = new Map<string, boolean>();
const MAX_KNOWN = 4_096;

export function isTodStation(name: string): boolean {
  let is = known.get(name);
  if (is === undefined) {
    is = KEYS.has(stationKey(name));
    if (known.size >= MAX_KNOWN) known.clear();
    known.set(name, is);
  }
  return is;
}
