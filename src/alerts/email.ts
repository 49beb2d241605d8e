// The digest e-mail of one alert for the publishes of one window: the first 50 changes (what, where, old and new,
// the pack versions, a link to the map), a link to the rest in the workspace, how many publishes it covers, and the
// one-click unsubscribe (RFC 8058). Pure: deliver.ts supplies the date, ids and links and sends the bytes.
import { alertTypeLabel, type DigestChange, describeChange, mapLink, notificationsLink } from "./describe.ts";
import { composeMime } from "./mime.ts";
import type { AlertType } from "./types.ts";

export const DIGEST_MAX_LISTED = 50;
export const SENDER_NAME = "Geo Assess alerts";

export interface DigestInput {
  from: string;
  to: string;
  alert: { id: string; type: AlertType; place: string };
  publish: { packId: string; from: string; to: string };
  changes: readonly DigestChange[];
  /** Every change the digest covers (more than `changes` when only the first were kept); `changes.length` if unset. */
  total?: number;
  /** How many publishes the digest covers (1 if unset). */
  publishes?: number;
  appUrl: string;
  unsubscribeUrl: string;
  date: Date;
  messageId: string;
  boundary: string;
}

export interface DigestEmail {
  subject: string;
  text: string;
  html: string;
  /** The whole RFC 5322 message. */
  raw: string;
}

const esc = (s: string): string =>
  s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch);

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

const totalOf = (i: Pick<DigestInput, "changes" | "total">) => Math.max(i.total ?? 0, i.changes.length);

export function digestSubject(i: Pick<DigestInput, "alert" | "changes" | "total" | "publishes">): string {
  const n = i.publishes ?? 1;
  const updates = n > 1 ? ` in ${n} updates` : "";
  return `${plural(totalOf(i), "change")}${updates} for your ${alertTypeLabel(i.alert.type)} alert: ${i.alert.place}`;
}

const versionsOf = (p: { packId: string; from: string; to: string }) => `pack ${p.packId}, version ${p.from} → ${p.to}`;

export function composeDigestEmail(i: DigestInput): DigestEmail {
  const subject = digestSubject(i);
  const total = totalOf(i);
  const publishes = i.publishes ?? 1;
  const listed = i.changes
    .slice(0, DIGEST_MAX_LISTED)
    .map((c) => ({ d: describeChange(c), v: versionsOf(c.publish ?? i.publish) }));
  const rest = total - listed.length;
  const packs = [...new Set([i.publish.packId, ...i.changes.map((c) => c.publish?.packId ?? i.publish.packId)])];
  const updated =
    publishes > 1
      ? `The planning data was updated ${publishes} times since this alert's last e-mail (${packs.map((p) => `pack ${p}`).join(", ")}).`
      : `The planning data was updated (${versionsOf(i.publish)}).`;
  const all = notificationsLink(i.appUrl, i.alert.id);
  const intro = `${updated} Your ${alertTypeLabel(i.alert.type)} alert on ${i.alert.place} found ${plural(total, "change")}.`;
  const why =
    "You get this e-mail because you created this alert. Unsubscribing stops this alert's e-mails only; its notifications stay in the workspace.";

  const text = [
    intro,
    "",
    ...listed.flatMap(({ d, v }, n) => [
      `${n + 1}. ${d.what}: ${d.where}`,
      `   was: ${d.old}`,
      `   now: ${d.new}`,
      `   ${v}`,
      `   on the map: ${mapLink(i.appUrl, d.point)}`,
      "",
    ]),
    rest > 0
      ? `...and ${plural(rest, "more change")}. See them all in the workspace: ${all}`
      : `See your notifications in the workspace: ${all}`,
    "",
    "--",
    why,
    `Stop these e-mails: ${i.unsubscribeUrl}`,
    "",
  ].join("\n");

  const cell = 'style="padding:4px 8px;border-bottom:1px solid #ddd;text-align:left;vertical-align:top"';
  const rows = listed
    .map(
      ({ d, v }) =>
        `<tr><td ${cell}>${esc(d.what)}</td><td ${cell}><a href="${esc(mapLink(i.appUrl, d.point))}">${esc(d.where)}</a></td>` +
        `<td ${cell}>${esc(d.old)}</td><td ${cell}>${esc(d.new)}</td><td ${cell}>${esc(v)}</td></tr>`,
    )
    .join("\n");
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(subject)}</title></head>
<body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;color:#222">
<p>${esc(intro)}</p>
<table style="border-collapse:collapse">
<thead><tr><th ${cell}>What changed</th><th ${cell}>Where</th><th ${cell}>Was</th><th ${cell}>Now</th><th ${cell}>Versions</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
<p>${
    rest > 0
      ? `…and ${esc(plural(rest, "more change"))}. <a href="${esc(all)}">See them all in the workspace</a>.`
      : `<a href="${esc(all)}">See your notifications in the workspace</a>.`
  }</p>
<hr>
<p style="font-size:small;color:#555">${esc(why)} <a href="${esc(i.unsubscribeUrl)}">Stop these e-mails</a>.</p>
</body></html>
`;

  const raw = composeMime({
    from: { address: i.from, name: SENDER_NAME },
    to: { address: i.to },
    subject,
    date: i.date,
    messageId: i.messageId,
    headers: [
      ["List-Unsubscribe", `<${i.unsubscribeUrl}>`],
      ["List-Unsubscribe-Post", "List-Unsubscribe=One-Click"],
    ],
    text,
    html,
    boundary: i.boundary,
  });
  return { subject, text, html, raw };
}
