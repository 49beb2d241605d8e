// Canonical NSW lot id is "lot/section/PLAN", e.g. "12//DP34567" or "5/3/DP758123", as in the cadastre's lotidstring.

const SLASH_FORM = /^(?:LOT\s*)?([A-Z0-9]+)\s*\/\s*(?:([A-Z0-9]+)\s*\/|\/)?\s*([A-Z]{1,3})\s*(\d+)$/;
const WORD_FORM = /^(?:LOT\s*)?([A-Z0-9]+)\s+(?:SEC\s*([A-Z0-9]+)\s+)?([A-Z]{1,3})\s*(\d+)$/;

function stripZeros(s: string): string {
  return /^\d+$/.test(s) ? String(Number.parseInt(s, 10)) : s;
}

// Returns the canonical lot id, or null when the text is not recognisably a lot on a plan.
export function normaliseLotId(input: string): string | null {
  const s = input
    .toUpperCase()
    .replace(/DEPOSITED\s+PLAN/g, "DP")
    .replace(/STRATA\s+PLAN/g, "SP")
    .replace(/\bSEC(?:TION)?\b\.?/g, "SEC")
    .replace(/[,;:#]/g, " ")
    .replace(/\bON\b/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  const m = SLASH_FORM.exec(s) ?? WORD_FORM.exec(s);
  if (!m) return null;
  const lot = stripZeros(m[1] as string);
  const section = m[2] ? stripZeros(m[2]) : "";
  const planType = m[3] as string;
  if (planType === "LOT" || planType === "SEC") return null;
  const planNumber = stripZeros(m[4] as string);
  return `${lot}/${section}/${planType}${planNumber}`;
}

/**
 * The one key a lot is indexed and looked up under, in every pack: the canonical id, else the id as uploaded (trimmed,
 * upper-cased), so a private lot named outside the cadastre's form ("1//SPIRAL") is still found by that name.
 */
export function lotKey(id: string): string {
  return normaliseLotId(id) ?? id.trim().toUpperCase();
}
