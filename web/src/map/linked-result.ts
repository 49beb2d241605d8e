// A batch or report a ledger link names in the URL (account/ledger.ts resultHref), for the Batch panel to open.
import type { ResultLink } from "../../../src/routes/schemas/billing.ts";

/** A batch or report named in the URL (a ledger link: account/ledger.ts resultHref), removed from the URL once read. */
export function takeLinkedResult(): ResultLink | null {
  const params = new URLSearchParams(location.search);
  const kind = params.has("batch") ? "batch" : params.has("report") ? "report" : null;
  const id = kind ? params.get(kind) : null;
  if (!kind || !id) return null;
  params.delete("batch");
  params.delete("report");
  const qs = params.toString();
  history.replaceState(history.state, "", `${location.pathname}${qs ? `?${qs}` : ""}${location.hash}`);
  return { kind, id };
}
