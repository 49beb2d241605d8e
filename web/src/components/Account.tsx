// Account: credits and recent transactions for everyone; members and plans for owners and admins.
import { useEffect, useState } from "react";
import type { Shell } from "../App.tsx";
import type { Member, Tier, Transaction } from "../api.ts";

type Subscription = { status: string | null; tier_name: string | null; current_period_end: string | null };

export default function Account({ shell }: { shell: Shell }) {
  const { api } = shell.auth;
  const admin = shell.membership.role !== "member";
  const [tx, setTx] = useState<Transaction[] | null>(null);
  const [members, setMembers] = useState<Member[] | null>(null);
  const [tiers, setTiers] = useState<Tier[] | null>(null);
  const [sub, setSub] = useState<Subscription | null>(null);
  const { report } = shell;

  useEffect(() => {
    shell.refreshBalance();
    api
      .get<{ transactions: Transaction[] }>("/billing/credits/usage-history?page=1&page_size=25")
      .then((r) => setTx(r.transactions), report);
    api.get<Tier[]>("/billing/tiers").then(setTiers, report);
    api.get<Subscription>("/billing/subscription").then(setSub, report);
    if (admin) api.get<Member[]>("/billing/org/members").then(setMembers, report);
  }, [api, admin, report, shell.refreshBalance]);

  async function checkout(tierId: string) {
    try {
      const r = await api.post<{ checkout_url: string }>("/billing/checkout", { tier_id: tierId });
      location.assign(r.checkout_url);
    } catch (err) {
      report(err);
    }
  }

  return (
    <main className="account">
      <section aria-labelledby="credits-h">
        <h2 id="credits-h">Credits</h2>
        <p className="big">{shell.balance === null ? "…" : `${shell.balance.toFixed(2)} credits`}</p>
        <p className="muted">
          {shell.membership.org.name} · you are {shell.membership.role}
          {sub?.status ? ` · plan ${sub.tier_name} (${sub.status})` : " · no subscription"}
        </p>
        {tx === null ? (
          <p role="status">Loading transactions…</p>
        ) : (
          <div className="table-wrap">
            <table>
              <caption>Recent transactions</caption>
              <thead>
                <tr>
                  <th scope="col">When</th>
                  <th scope="col">What</th>
                  <th scope="col">Amount</th>
                  <th scope="col">Balance after</th>
                </tr>
              </thead>
              <tbody>
                {tx.map((t) => (
                  <tr key={t.id}>
                    <td>{new Date(t.created_at).toLocaleString()}</td>
                    <td>{t.description ?? t.type}</td>
                    <td className={t.amount < 0 ? "neg" : "pos"}>{t.amount > 0 ? `+${t.amount}` : t.amount}</td>
                    <td>{t.balance_after}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
      {admin && (
        <section aria-labelledby="team-h">
          <h2 id="team-h">Team members</h2>
          {members === null ? (
            <p role="status">Loading members…</p>
          ) : (
            <ul className="members">
              {members.map((m) => (
                <li key={m.id}>
                  {m.display_name ?? m.email ?? m.user_id} <span className="role">{m.role}</span>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
      <section aria-labelledby="plans-h">
        <h2 id="plans-h">Plans</h2>
        {tiers === null ? (
          <p role="status">Loading plans…</p>
        ) : (
          <div className="tiers">
            {tiers.map((t) => (
              <article key={t.id} className="tier">
                <h3>{t.name}</h3>
                <p className="big">{t.price_display}</p>
                <p>{t.credits} credits a month</p>
                <ul>
                  {t.features.map((f) => (
                    <li key={f}>{f}</li>
                  ))}
                </ul>
                {admin && t.id !== "free" && (
                  <button type="button" className="primary" onClick={() => void checkout(t.id)}>
                    Choose {t.name}
                  </button>
                )}
              </article>
            ))}
          </div>
        )}
        {!admin && <p className="muted">Ask an owner or admin of your organisation to change the plan.</p>}
      </section>
    </main>
  );
}
