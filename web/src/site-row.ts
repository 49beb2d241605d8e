// A row of the batch table: a scored site or a row's error, as the batch stream sent it.
import type { SiteError, SiteResult } from "../../src/routes/schemas/batch.ts";

export type SiteRow = ({ kind: "result" } & SiteResult) | ({ kind: "error" } & SiteError);
