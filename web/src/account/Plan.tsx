// Plan: the tiers side by side, the current subscription and its state, checkout and the billing portal.
import { useCallback, useEffect, useState } from "react";
import type { JoinedShell } from "../shell.ts";
import type { CheckoutRequest, CheckoutResponse, PortalResponse, Subscription, Tier } from "../api.ts";
import { Outcome, useConfirm, useOutcome } from "./Confirm.tsx";

const LIVE = new Set(["active", "trialing", "past_due", "unpaid", "paused"]);
const STATE: Record<string, string> = {
  active: "active",
  trialing: "in its trial",
  past_due: "past due: update the payment method in the portal",
  unpaid: "unpaid: update the payment method in the portal",
  paused: "paused",
  canceled: "cancelled",
  incomplete: "waiting for the first payment",
  incomplete_expired: "expired before the first payment",
};
const day = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { day: "numeric", month: "long", year: "numeric" });

function describe(sub: Subscription): string {
  if (!sub.status) return "Your organisation has no subscription: it uses the credits it holds.";
  const state = STATE[sub.status] ?? sub.status.replaceAll("_", " ");
  const end = sub.current_period_end
    ? sub.cancel_at_period_end
      ? `; it ends on ${day(sub.current_period_end)}`
      : `; it renews on ${day(sub.current_period_end)}`
    : "";
  const credits = sub.credits_per_month ? ` with ${sub.credits_per_month} credits a month` : "";
  return `${sub.tier_name ?? "Subscription"}${credits}: ${state}${end}.`;
}

export function Plan({
  shell,
  onPaid,
  announce,
}: {
  shell: JoinedShell;
  onPaid: () => void;
  /** Says how a checkout went at the top of the page, in view on return from the processor. */
  announce: (text: string) => void;
}) {
  const { api } = shell.auth;
  const admin = shell.membership.role !== "member";
  const [tiers, setTiers] = useState<Tier[] | null>(null);
  const [sub, setSub] = useState<Subscription | null>(null);
  const [busy, setBusy] = useState(false);
  const { said, fail } = useOutcome(shell.report);
  const { ask, dialog } = useConfirm();

  const loadSub = useCallback(() => api.get<Subscription>("/billing/subscription"), [api]);
  useEffect(() => {
    api.get<Tier[]>("/billing/tiers").then(setTiers, fail);
    loadSub().then(setSub, fail);
  }, [api, fail, loadSub]);

  // Back from the processor's page: say how it went; the webhook may land a moment after the redirect.
  useEffect(() => {
    const result = new URLSearchParams(location.search).get("checkout");
    if (!result) return;
    history.replaceState(null, "", `/account${location.hash}`);
    if (result !== "success") {
      announce("Checkout was cancelled: nothing was charged.");
      return;
    }
    let stop = false;
    void (async () => {
      for (let i = 0; i < 10 && !stop; i++) {
        const s = await loadSub().catch(() => null);
        if (s?.status && LIVE.has(s.status)) {
          setSub(s);
          announce(`Payment received: ${s.tier_name} is ${STATE[s.status] ?? s.status} and its credits were added.`);
          onPaid();
          return;
        }
        await new Promise((r) => setTimeout(r, 1000));
      }
      if (!stop) announce("Payment received: the subscription appears below once the processor confirms it.");
    })();
    return () => {
      stop = true;
    };
  }, [loadSub, announce, onPaid]);

  const live = Boolean(sub?.status && LIVE.has(sub.status));

  async function checkout(t: Tier) {
    // One subscription per organisation: with a live one, the API refuses (409) or sends the portal instead.
    const yes = await ask(
      live
        ? {
            title: `Change to ${t.name}?`,
            body: `Your organisation already has a subscription (${sub?.tier_name}). A plan is changed in the billing portal, not with a second subscription.`,
            confirm: "Continue",
          }
        : {
            title: `Subscribe to ${t.name}?`,
            body: `${t.name} costs ${t.price_display} and brings ${t.credits} credits a month. The payment processor's page opens to take the payment.`,
            confirm: "Continue to payment",
          },
    );
    if (!yes) return;
    setBusy(true);
    try {
      const r = await api.post<CheckoutResponse>("/billing/checkout", { tier_id: t.id } satisfies CheckoutRequest);
      location.assign(r.checkout_url);
    } catch (err) {
      // The 409's detail, as a person reads it: without the API route it names for programs.
      const said = err instanceof Error ? `${err.message.replace(/\s*\((GET|POST|PUT|DELETE) \/[^)]*\)/, "")}.` : "";
      fail(err, { 409: said.replace(/\.\.$/, ".") });
      setBusy(false);
    }
  }

  async function portal() {
    setBusy(true);
    try {
      const r = await api.post<PortalResponse>("/billing/portal");
      location.assign(r.portal_url);
    } catch (err) {
      fail(err);
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="plans-h">
      <h2 id="plans-h">Plans</h2>
      <p className="muted">
        Every plan, Free included, can upload its own private data packs: up to 20 per organisation.
      </p>
      {sub === null ? (
        <p role="status">Loading the subscription…</p>
      ) : (
        <p className="subscription">{`Current subscription: ${describe(sub)}`}</p>
      )}
      <Outcome said={said} />
      {admin && sub?.status && (
        <button type="button" className="portal" onClick={() => void portal()} disabled={busy}>
          Manage subscription
        </button>
      )}
      {tiers === null ? (
        <p role="status">Loading plans…</p>
      ) : (
        <div className="tiers">
          {tiers.map((t) => {
            const current = live && sub?.tier_name === t.name;
            return (
              <article key={t.id} className={current ? "tier current" : "tier"} aria-label={t.name}>
                <h3>{t.name}</h3>
                {current && <p className="badge">Current plan</p>}
                <p className="big">{t.price_display}</p>
                <p>{t.credits} credits a month</p>
                <ul>
                  {t.features.map((f) => (
                    <li key={f}>{f}</li>
                  ))}
                </ul>
                {admin && t.price_cents > 0 && !current && (
                  <button type="button" className="primary" disabled={busy} onClick={() => void checkout(t)}>
                    Choose {t.name}
                  </button>
                )}
              </article>
            );
          })}
        </div>
      )}
      {!admin && <p className="muted">Ask an owner or admin of your organisation to change the plan.</p>}
      {dialog}
    </section>
  );
}
