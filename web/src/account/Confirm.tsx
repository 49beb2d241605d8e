// Asks before an action is taken (a modal dialog), and says afterwards what happened or why it was refused.
import { type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import { Problem } from "../api.ts";

/** `danger`: the action destroys or takes away something (delete, remove, revoke); unset, the verb decides. */
export type Question = { title: string; body: string; confirm: string; danger?: boolean };

const DESTRUCTIVE = /^(Delete|Remove|Revoke|Cancel subscription)\b/;

/** `ask(q)` opens the dialog and resolves true when the person confirms; render `dialog` once. */
export function useConfirm(): { ask: (q: Question) => Promise<boolean>; dialog: ReactNode } {
  const [open, setOpen] = useState<(Question & { resolve: (yes: boolean) => void }) | null>(null);
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    if (open && !ref.current?.open) ref.current?.showModal();
  }, [open]);
  const ask = useCallback((q: Question) => new Promise<boolean>((resolve) => setOpen({ ...q, resolve })), []);
  const answer = (yes: boolean) => {
    ref.current?.close();
    open?.resolve(yes);
    setOpen(null);
  };
  const dialog = open && (
    <dialog ref={ref} className="confirm" aria-labelledby="confirm-title" onCancel={() => answer(false)}>
      <h3 id="confirm-title">{open.title}</h3>
      <p>{open.body}</p>
      <div className="actions">
        <button type="button" onClick={() => answer(false)}>
          Cancel
        </button>
        <button
          type="button"
          className={(open.danger ?? DESTRUCTIVE.test(open.confirm)) ? "primary destructive" : "primary"}
          onClick={() => answer(true)}
        >
          {open.confirm}
        </button>
      </div>
    </dialog>
  );
  return { ask, dialog };
}

export type Said = { text: string; ok: boolean } | null;

/** What the last action did, in a sentence: a status when it worked, an alert when it was refused. */
export function useOutcome(report: (p: unknown) => void): {
  said: Said;
  ok: (text: string) => void;
  fail: (err: unknown, sentences?: Partial<Record<number, string>>) => void;
  clear: () => void;
} {
  const [said, setSaid] = useState<Said>(null);
  const ok = useCallback((text: string) => setSaid({ text, ok: true }), []);
  const clear = useCallback(() => setSaid(null), []);
  const fail = useCallback(
    (err: unknown, sentences: Partial<Record<number, string>> = {}) => {
      if (!(err instanceof Problem) || err.way === "sign-in") {
        report(err);
        return;
      }
      setSaid({ text: sentences[err.status] ?? err.message, ok: false });
    },
    [report],
  );
  return { said, ok, fail, clear };
}

export function Outcome({ said }: { said: Said }) {
  if (!said) return null;
  return said.ok ? (
    <p className="outcome ok" role="status">
      {said.text}
    </p>
  ) : (
    <p className="outcome refused" role="alert">
      {said.text}
    </p>
  );
}
