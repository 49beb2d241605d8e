// The report's date: the calendar day in Sydney, so a report made on the morning of the 3rd says the 3rd.
const SYDNEY_DAY = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Australia/Sydney",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
});

/** YYYY-MM-DD of `now` in Australia/Sydney. */
export function reportDate(now: Date): string {
  const parts = Object.fromEntries(SYDNEY_DAY.formatToParts(now).map((p) => [p.type, p.value]));
  return `${parts.year}-${parts.month}-${parts.day}`;
}
