// The bounds and choices of requests as plain values (no zod): the schemas state them, features enforce them, the web offers them.

/** POST /sites/search: the overlays a search can leave out and the orders it can sort by. */
export const EXCLUDABLE = ["flood", "bushfire", "heritage"] as const;
export const SORTS = ["area", "fsr", "height", "station"] as const;
/** The search's orders: SORTS and `value`, by margin over the as-is value on the caller's assumptions. */
export const SITE_SORTS = [...SORTS, "value"] as const;
/** Matches in one page of POST /sites/search, when the body names none and at most. */
export const SEARCH_DEFAULT_LIMIT = 100;
export const SEARCH_MAX_LIMIT = 500;
/** Positions of a search polygon, and of an alert's polygon, which is one. */
export const SEARCH_MAX_POLYGON_VERTICES = 1_000;

/** How an alert tells a person of a change. */
export const CHANNELS = ["in_app", "email"] as const;
/** Characters of a saved site's note. */
export const MAX_NOTE_CHARS = 500;
