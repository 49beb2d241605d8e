// The small pages of the unsubscribe link: GET shows the alert and a one-button form that POSTs (mail scanners
// prefetch GET links, so GET changes nothing); a browser's POST gets the outcome as a page too.
import type { SpendOutcome, UnsubscribePreview } from "./unsubscribe.ts";

const esc = (s: string): string =>
  s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#222}button{font:inherit;padding:.5rem 1rem}</style>
</head><body>
<h1>${esc(title)}</h1>
${body}
</body></html>
`;
}

const KEEP = "<p>Its notifications stay in the workspace.</p>";

/** GET: the alert named, and the form when the link can still stop something. */
export function unsubscribeConfirmPage(p: UnsubscribePreview, token: string): string {
  const name = esc(p.name);
  if (p.used)
    return page(
      "This link was used already",
      `<p>This unsubscribe link was used already, so it changes nothing now. E-mails for your ${name} are ${p.emailStopped ? "stopped" : "on"}.</p>`,
    );
  if (p.emailStopped)
    return page("E-mails stopped already", `<p>E-mails for your ${name} are stopped already.</p>${KEEP}`);
  const action = `/alerts/unsubscribe?token=${encodeURIComponent(token)}`;
  return page(
    "Stop this alert's e-mails?",
    `<p>You will get no more e-mails for your ${name}.</p>${KEEP}
<form method="post" action="${esc(action)}">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit">Stop e-mails</button>
</form>`,
  );
}

/** A browser's POST: what happened. */
export function unsubscribeDonePage(outcome: SpendOutcome): string {
  return outcome === "unsubscribed"
    ? page("Unsubscribed", `<p>You will get no more e-mails for this alert.</p>${KEEP}`)
    : page("This link was used already", "<p>This unsubscribe link was used already; nothing was changed.</p>");
}
