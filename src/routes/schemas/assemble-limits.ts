// The bounds and choices of POST /sites/assemble (docs/design.md section 14) as plain values (no zod): the schema
// states them, the engine keeps them.

/** The orders groups are chosen and listed in. */
export const ASSEMBLY_SORTS = ["owners", "area", "lots", "frontage"] as const;

/** Lots in one group, and groups in one answer. */
export const ASSEMBLY_MIN_LOTS = 2;
export const ASSEMBLY_MAX_LOTS = 8;
export const ASSEMBLY_DEFAULT_LIMIT = 20;
export const ASSEMBLY_MAX_LIMIT = 100;
/** Lots passing the filters one assembly considers at most: past this it is refused with a sentence. */
export const MAX_CANDIDATES = 25_000;
/** Groups the chat's score_sites scores in one call (each charged as one site). */
export const CHAT_MAX_GROUPS = 5;
