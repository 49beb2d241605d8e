// `Save site` in a lot's facts: saves the lot for the organisation, says it is saved, and removes it again.
import { useState } from "react";
import type { Api } from "../api.ts";
import "./alerts.css";
import { remove, save, sentenceOf, useSaved } from "./store.ts";

type Props = { api: Api; lotId: string | null; onProblem: (p: unknown) => void };

export function SaveSite({ api, lotId, onProblem }: Props) {
  const { sites } = useSaved();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<{ lot: string; text: string } | null>(null);
  if (!lotId) return <p className="muted small">This lot has no lot id in its data, so it cannot be saved.</p>;
  const saved = sites?.find((s) => s.lot_id === lotId) ?? null;

  async function run(work: () => Promise<unknown>, fallback: string, lot: string) {
    setBusy(true);
    setProblem(null);
    try {
      await work();
    } catch (err) {
      setProblem({ lot, text: sentenceOf(err, onProblem, fallback) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="save-site">
      {saved ? (
        <>
          <span className="saved-mark" role="status">
            <span aria-hidden="true">★</span> Saved for your organisation
          </span>
          <button
            type="button"
            className="link"
            aria-label="Remove from saved"
            disabled={busy}
            onClick={() =>
              void run(() => remove(api, saved.id), "The site could not be removed. Please try again.", lotId)
            }
          >
            Remove
          </button>
        </>
      ) : (
        <button
          type="button"
          disabled={busy}
          onClick={() => void run(() => save(api, lotId), "The site could not be saved. Please try again.", lotId)}
        >
          <span aria-hidden="true">☆ </span>
          {busy ? "Saving…" : "Save site"}
        </button>
      )}
      {problem && problem.lot === lotId && (
        <p className="error-text small" role="alert">
          {problem.text}
        </p>
      )}
    </div>
  );
}
