// A question read piece by piece: each grammar rule takes the words it understood, and what no rule took is
// what the planner must say it ignored (it never drops words silently).
import { FILLER, SOFT } from "./words.ts";

const WORD = /[\p{L}\p{N}'’²^+-]+/gu;
const BREAK = /[,;.?!()]/;

export class Reader {
  private readonly used: boolean[];
  readonly text: string;

  constructor(text: string) {
    this.text = text;
    this.used = Array.from({ length: text.length }, () => false);
  }

  /** Every match of `re` over the words no rule took yet, marking them taken. */
  take(re: RegExp): RegExpExecArray[] {
    const flags = re.flags.includes("g") ? re.flags : `${re.flags}g`;
    const out: RegExpExecArray[] = [];
    // Matched against the words left, so a taken word between two others does not stop a rule.
    for (const m of this.rest().matchAll(new RegExp(re.source, flags))) {
      const start = m.index;
      const end = start + m[0].length;
      if (m[0].trim() === "") continue;
      this.used.fill(true, start, end);
      out.push(m as RegExpExecArray);
    }
    return out;
  }

  /** The first match of `re` over words not yet taken, taken; null when none. */
  takeOne(re: RegExp): RegExpExecArray | null {
    const flags = re.flags.replace("g", "");
    const free = this.rest();
    const m = new RegExp(re.source, flags).exec(free);
    if (!m || m[0].trim() === "") return null;
    const start = m.index;
    this.used.fill(true, start, start + m[0].length);
    return m;
  }

  /** Whether `re` matches the words no rule took (the question's intent words are read from these). */
  has(re: RegExp): boolean {
    return re.test(this.rest());
  }

  /** The question with every taken character blanked. */
  rest(): string {
    return [...this.text].map((c, i) => (this.used[i] ? " " : c)).join("");
  }

  /** Runs of words no rule took that carry meaning, each trimmed of filler at its ends: the words ignored. */
  ignored(): string[] {
    const out: string[] = [];
    for (const run of this.rest().split(new RegExp(`\\s{2,}|${BREAK.source}`))) {
      const words = run.match(WORD) ?? [];
      if (!words.some((w) => !FILLER.has(w.toLowerCase()))) continue;
      let a = 0;
      let b = words.length;
      while (a < b && SOFT.has((words[a] as string).toLowerCase())) a++;
      while (b > a && SOFT.has((words[b - 1] as string).toLowerCase())) b--;
      out.push(words.slice(a, b).join(" "));
    }
    return out;
  }
}
