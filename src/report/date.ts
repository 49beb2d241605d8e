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

/** Hex SHA-256 of a value's JSON, for idempotency keys and the report's printed digest. */
export async function digestOf(value: unknown): Promise<string> {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(JSON.stringify(value))));
  return Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("");
}
