// A problem said as a sentence, with its way out (sign in, buy credits, retry later).
import { useEffect, useState } from "react";
import type { Problem } from "../api.ts";

export function Notice({
  problem,
  onClose,
  onAccount,
}: {
  problem: Problem;
  onClose: () => void;
  onAccount?: () => void;
}) {
  const [left, setLeft] = useState(problem.retryAfter ?? 0);
  useEffect(() => {
    setLeft(problem.retryAfter ?? 0);
    if (!problem.retryAfter) return;
    const t = setInterval(() => setLeft((s) => Math.max(0, s - 1)), 1000);
    return () => clearInterval(t);
  }, [problem]);
  const text =
    problem.way === "retry" && problem.retryAfter ? problem.message.replace(/\d+ s\./, `${left} s.`) : problem.message;
  return (
    <div className={`notice notice-${problem.way}`} role="alert">
      <p>{text}</p>
      {problem.way === "buy-credits" && onAccount && (
        <button type="button" onClick={onAccount}>
          See plans and credits
        </button>
      )}
      <button type="button" className="quiet" onClick={onClose} aria-label="Dismiss">
        ×
      </button>
    </div>
  );
}
