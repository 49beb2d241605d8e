// One search-as-you-type answer: a suburb, or a lot found by its id or street address.
import type { GeocodeResult } from "./gazetteer.ts";

export type Suggestion = GeocodeResult & { kind: "suburb" | "lot"; lot_id: string | null };
