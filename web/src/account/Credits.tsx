// Credits: the balance, usage per day by action, and the transactions behind them.
import { useEffect, useMemo, useState } from "react";
import type { JoinedShell } from "../shell.ts";
import type { Api, Transaction, UsageHistory } from "../api.ts";
import { Transactions } from "./Transactions.tsx";
import { UsageChart } from "./UsageChart.tsx";
import { perDay } from "./ledger.ts";

/** Days the chart shows: a month, or two weeks on a phone-sized screen. */
const chartDays = () => (matchMedia("(max-width: 600px)").matches ? 14 : 30);
/** Page size of the reads, and how many entries the page reads at most (the newest): the API has no filters. */
const LEDGER_PAGE = 100;
const LEDGER_MAX = 1000;

/** The newest entries, up to LEDGER_MAX, newest first, with the ledger's full length. */
async function loadLedger(api: Api): Promise<{ entries: Transaction[]; total: number }> {
  const entries: Transaction[] = [];
  let total = 0;
  for (let page = 1; entries.length < LEDGER_MAX; page++) {
    const r = await api.get<UsageHistory>(`/billing/credits/usage-history?page=${page}&page_size=${LEDGER_PAGE}`);
    entries.push(...r.transactions);
    total = r.total;
    if (page >= r.total_pages || r.transactions.length === 0) break;
  }
  return { entries, total };
}

export function Credits({ shell, reload }: { shell: JoinedShell; reload: number }) {
  const { api } = shell.auth;
  const { report, refreshBalance } = shell;
  const [ledger, setLedger] = useState<{ entries: Transaction[]; total: number } | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `reload` is the signal to read the ledger again.
  useEffect(() => {
    refreshBalance();
    loadLedger(api).then(setLedger, report);
  }, [api, report, refreshBalance, reload]);

  const days = useMemo(() => (ledger ? perDay(ledger.entries, chartDays()) : null), [ledger]);
  return (
    <section aria-labelledby="credits-h">
      <h2 id="credits-h">Credits</h2>
      <p className="big">
        {shell.balance === null ? "…" : `${shell.balance.toFixed(2)} credits`}
        <span className="muted"> available to {shell.membership.name}</span>
      </p>
      {ledger === null || days === null ? (
        <p role="status">Loading the ledger…</p>
      ) : (
        <>
          <UsageChart days={days} />
          <Transactions entries={ledger.entries} total={ledger.total} />
        </>
      )}
    </section>
  );
}
