// The live search behind the form: debounced, an earlier request cancelled, then pages added on "More".
import { useCallback, useEffect, useRef, useState } from "react";
import { type Api, Problem } from "../../api.ts";
import type { Built } from "./query.ts";
import { searchPage } from "./search.ts";
import type { SearchAnswer } from "./types.ts";

/** Rows in the table's first page and in each "More". */
export const PAGE = 100;
/** A pause in typing this long starts the search (each keystroke would otherwise be one). */
export const DEBOUNCE_MS = 300;

export type SearchState = {
  answer: SearchAnswer | null;
  /** The answer is this search's (not the last one's, still shown while this one runs). */
  current: boolean;
  busy: boolean;
  /** What went wrong, as a sentence for the panel. */
  problem: string | null;
  more: () => void;
};

export function useSearch(api: Api, built: Built, onProblem: (p: unknown) => void): SearchState {
  const [answer, setAnswer] = useState<SearchAnswer | null>(null);
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
    if (!built.ok) {
      setAnswer(null);
      setBusy(false);
      setProblem(built.problem);
      return;
    }
    setBusy(true);
    const ctl = new AbortController();
    live.current = ctl;
    const t = setTimeout(() => {
      searchPage(api, built.query, { limit: PAGE }, ctl.signal).then(
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
  }, [api, key, fail]);

  const more = useCallback(() => {
    const ctl = live.current;
    if (!built.ok || !answer?.next_cursor || !ctl) return;
    setBusy(true);
    searchPage(api, built.query, { limit: PAGE, cursor: answer.next_cursor }, ctl.signal).then(
      (a) => {
        setAnswer((prev) => (prev ? { ...a, results: [...prev.results, ...a.results] } : a));
        setBusy(false);
      },
      (err: unknown) => {
        if (ctl.signal.aborted) return;
        setBusy(false);
        fail(err);
      },
    );
  }, [api, built, answer, fail]);

  return { answer, current: answerKey === key, busy, problem, more };
}
