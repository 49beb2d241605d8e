// A transfer duty schedule as data, and the duty it charges: each bracket's base plus its rate on every $100, or part,
// by which the value exceeds the bracket's start; premium property duty above its threshold (Duties Act 1997 s 32A).

export interface DutyBracket {
  from: number; // dollars: the bracket applies from this value (its base is the duty there)
  base: number; // duty at `from`
  per100: number; // dollars per $100, or part, above `from`
}

export interface DutySchedule {
  id: string;
  effectiveFrom: string; // ISO date the schedule commenced
  source: string;
  minimum: number; // the least duty charged on any dutiable value above 0
  brackets: readonly DutyBracket[]; // ascending by `from`, the first from 0
  premium: { threshold: number; per100: number; note: string } | null;
}

// Whole dollars, 50 cents down, as Revenue NSW rounds its indexed base amounts.
const dollars = (x: number) => Math.ceil(Math.round(x * 100) / 100 - 0.5);

function general(s: DutySchedule, value: number): number {
  let b = s.brackets[0];
  for (const x of s.brackets) if (value >= x.from) b = x;
  if (b === undefined) throw new Error(`duty schedule ${s.id} has no brackets`);
  const hundreds = Math.ceil((value - b.from) / 100);
  // Cents first, then whole dollars: $1.75 × 3 hundreds is $5.25, not $5.
  return Math.round((b.base + hundreds * b.per100) * 100) / 100;
}

/** Duty on a dutiable value, whole dollars; 0 on a value of 0 or less. */
export function transferDuty(s: DutySchedule, value: number): number {
  if (!(value > 0)) return 0;
  const p = s.premium;
  if (p !== null && value > p.threshold) {
    const hundreds = Math.ceil((value - p.threshold) / 100);
    return dollars(general(s, p.threshold) + hundreds * p.per100);
  }
  return dollars(Math.max(s.minimum, general(s, value)));
}
