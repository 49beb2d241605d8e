// The local processor's hosted pages: checkout (its Pay button POSTs to the session URL), the billing
// portal (cancel, resume, cancel now) and a return page for the dev success/cancel URLs.
import { money, type Obj } from "./objects.ts";

const esc = (v: unknown): string =>
  String(v ?? "").replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch,
  );

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>
<style>body{font:16px system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1a1a2e}
.card{border:1px solid #ddd;border-radius:8px;padding:1.25rem;margin:1rem 0}button{font:inherit;padding:.5rem 1.25rem;border-radius:6px;border:0;background:#635bff;color:#fff;cursor:pointer}
button.secondary{background:#eee;color:#222}small{color:#666}</style></head>
<body><p><small>Local payment processor (development only: no money moves)</small></p>${body}</body></html>`;
}

const date = (unix: unknown): string => new Date(Number(unix) * 1000).toISOString().slice(0, 10);

export function checkoutPage(session: Obj, price: Obj | undefined): string {
  const amount = money(Number(session.amount_total), String(session.currency));
  if (session.status !== "open") {
    return page(
      "Checkout",
      `<div class="card"><h1>Checkout ${esc(session.status)}</h1><p>This session is ${esc(session.status)}.</p></div>`,
    );
  }
  return page(
    "Checkout",
    `<div class="card"><h1>${esc(price?.nickname ?? "Subscription")}</h1><p>${esc(amount)} per month</p>
<form method="post"><button type="submit">Pay ${esc(amount)}</button></form>
${session.cancel_url ? `<p><a href="${esc(session.cancel_url)}">Cancel</a></p>` : ""}</div>`,
  );
}

export function portalPage(session: Obj, subscriptions: Obj[]): string {
  const rows = subscriptions.map((s) => {
    const item = ((s.items as { data?: Obj[] }).data ?? [])[0] ?? {};
    const price = (item.price ?? {}) as Obj;
    const action = (name: string, label: string, cls = "") =>
      `<form method="post" action="/p/session/${esc(session.id)}/subscriptions/${esc(s.id)}/${name}" style="display:inline"><button class="${cls}">${label}</button></form>`;
    const live = s.status !== "canceled";
    const buttons = !live
      ? ""
      : s.cancel_at_period_end
        ? action("resume", "Resume subscription")
        : `${action("cancel", "Cancel at period end")} ${action("cancel_now", "Cancel now", "secondary")}`;
    const ends = s.cancel_at_period_end
      ? `ends ${date(item.current_period_end)}`
      : `renews ${date(item.current_period_end)}`;
    return `<div class="card"><h2>${esc(price.nickname)}</h2><p>${esc(s.status)}${live ? `, ${ends}` : ""}</p>${buttons}</div>`;
  });
  const back = session.return_url ? `<p><a href="${esc(session.return_url)}">Return</a></p>` : "";
  return page("Billing portal", `<h1>Your subscription</h1>${rows.join("") || "<p>No subscriptions.</p>"}${back}`);
}

export function returnPage(query: URLSearchParams): string {
  const result = query.get("result") ?? "done";
  return page(
    "Back to the app",
    `<div class="card"><h1>Checkout ${esc(result)}</h1><p>Point CHECKOUT_SUCCESS_URL and CHECKOUT_CANCEL_URL at your app to land there instead.</p></div>`,
  );
}
