// NSW transfer duty, general rates and premium property duty, in force from 1 July 2025 (Duties Act 1997 ss 32, 32A).
// Revenue NSW re-indexes the brackets every 1 July, so the schedule is data with its date.
import type { DutySchedule } from "./schedule.ts";

export const NSW_DUTY_2025_26: DutySchedule = {
  id: "nsw-2025-26",
  effectiveFrom: "2025-07-01",
  source:
    "Revenue NSW, Transfer duty (revenue.nsw.gov.au/taxes-duties-levies-royalties/transfer-duty), rates from 1 July 2025; read through secondary copies of its table (midmountainslegal.com.au, feasly.com.au), the official page not reached here",
  minimum: 20,
  brackets: [
    { from: 0, base: 0, per100: 1.25 },
    { from: 17_000, base: 212, per100: 1.5 },
    { from: 37_000, base: 512, per100: 1.75 },
    { from: 99_000, base: 1_597, per100: 3.5 },
    { from: 372_000, base: 11_152, per100: 4.5 },
    { from: 1_240_000, base: 50_212, per100: 5.5 },
  ],
  premium: {
    threshold: 3_636_000,
    per100: 7,
    note: "Premium threshold for 1 July 2024 to 30 June 2025 (Revenue NSW, Contracts for sale of land and transfers guide, section 10: $182,390 plus $7.00 per $100 over $3,636,000), the last figure confirmed here: the 2025-26 threshold could not be read. Its base is the general duty at the threshold under these brackets (s 32A), $181,992",
  },
};
