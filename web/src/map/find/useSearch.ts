// The live search behind the form (lots, or groups of them): debounced, an earlier request cancelled, then pages
// added on "More".
import { useCallback, useEffect, useRef, useState } from "react";
import { Problem } from "../../api.ts";
import type { Built } from "./query.ts";

/** Rows in the table's first page and in each "More". */
export const PAGE = 100;
/** A pause in typing this long starts the search (each keystroke would otherwise be one). */
export const DEBOUNCE_MS = 300;

/** One page of an answer, asked for by the search's query: the route's call. */
export type PageOf<Q, A> = (
  query: Q,
  page: { limit: number; cursor?: string | null },
  signal: AbortSignal,
) => Promise<A>;

export type SearchState<A> = {
  answer: A | null;
  /** The answer is this search's (not the last one's, still shown while this one runs). */
  current: boolean;
  busy: boolean;
  /** What went wrong, as a sentence for the panel. */
  problem: string | null;
  more: () => void;
};

/**
 * `built` null: this kind of search is not the one shown (the other is), so it asks nothing and holds nothing.
 * `pageOf` and `join` must keep their identity across renders (a new one is a new search).
 */
export function useSearch<Q, A extends { next_cursor: string | null }>(
  built: Built<Q> | null,
  pageOf: PageOf<Q, A>,
  join: (prev: A, next: A) => A,
  limit: number,
  onProblem: (p: unknown) => void,
): SearchState<A> {
  const [answer, setAnswer] = useState<A | null>(null);
  const [answerKey, setAnswerKey] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const live = useRef<AbortController | null>(null);
  const key = JSON.stringify(built);

  // Sign-in and credit problems are the page's (they have a way out there); any other is said in the panel.
  const fail = useCallback(
    (err: unknown) => {
      if (err instanceof Problem && (err.way === "sign-in" || err.way === "buy-credits")) onProblem(err);
      setProblem(err instanceof Problem ? err.message : "The search failed. Please try again.");
    },
    [onProblem],
  );

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` is `built` as text, so an equal search is not re-sent
  useEffect(() => {
    if (!built?.ok) {
      setAnswer(null);
      setAnswerKey(null);
      setBusy(false);
      setProblem(built && !built.ok ? built.problem : null);
      return;
    }
    setBusy(true);
    const ctl = new AbortController();
    live.current = ctl;
    const t = setTimeout(() => {
      pageOf(built.query, { limit }, ctl.signal).then(
        (a) => {
          setAnswer(a);
          setAnswerKey(key);
          setProblem(null);
          setBusy(false);
        },
        (err: unknown) => {
          if (ctl.signal.aborted) return;
          setAnswer(null);
          setBusy(false);
          fail(err);
        },
      );
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(t);
      ctl.abort();
    };
  }, [pageOf, key, limit, fail]);

  const more = useCallback(() => {
    const ctl = live.current;
    if (!built?.ok || !answer?.next_cursor || !ctl) return;
    setBusy(true);
    pageOf(built.query, { limit, cursor: answer.next_cursor }, ctl.signal).then(
      (a) => {
        setAnswer((prev) => (prev ? join(prev, a) : a));
        setBusy(false);
      },
      (err: unknown) => {
        if (ctl.signal.aborted) return;
        setBusy(false);
        fail(err);
      },
    );
  }, [pageOf, join, limit, built, answer, fail]);

  return { answer, current: answerKey === key, busy, problem, more };
}
