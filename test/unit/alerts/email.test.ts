// The digest e-mail as bytes on the wire: RFC 5322 headers (with RFC 8058's one-click pair), text and HTML
// alternatives in quoted-printable, the first 50 changes listed with a link to the rest, every value escaped in
// HTML, and old/new values with the pack versions. Parsed back here by a small reader, not by string search alone.
import { describe, expect, it } from "vitest";
import type { DigestChange } from "../../../src/alerts/describe.ts";
import { DIGEST_MAX_LISTED, type DigestInput, composeDigestEmail } from "../../../src/alerts/email.ts";
import { encodedWords, header, quotedPrintable } from "../../../src/alerts/mime.ts";

const ALERT_ID = "0b6f8f5e-6b1f-4a5e-9a51-1f4f3b6c2d10";

function change(n: number, more: Partial<DigestChange> = {}): DigestChange {
  return {
    type: "zoning_change",
    lot_id: `${n}//DP${1000 + n}`,
    field: "zone",
    old: "R2",
    new: "R4",
    point: [151.1 + n / 1000, -33.77],
    key: `v1->v2:zoning_change:${n}//DP${1000 + n}:zone`,
    ...more,
  } as DigestChange;
}

function input(changes: DigestChange[], more: Partial<DigestInput> = {}): DigestInput {
  return {
    from: "alerts@geo-assess.example",
    to: "owner@demo.test",
    alert: { id: ALERT_ID, type: "zoning_change", place: "Epping" },
    publish: { packId: "nsw-planning", from: "2026-10", to: "2026-11" },
    changes,
    appUrl: "https://app.example.com",
    unsubscribeUrl: "https://app.example.com/alerts/unsubscribe?token=abc.def.ghi",
    date: new Date("2026-11-27T17:12:41Z"),
    messageId: "1234@geo-assess.example",
    boundary: "=_alert_test",
    ...more,
  };
}

const bytesOf = (hex: string) => Number.parseInt(hex, 16);

function decodeQp(body: string): string {
  const joined = body.replace(/=\r\n/g, "");
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    if (joined[i] === "=") {
      bytes.push(bytesOf(joined.slice(i + 1, i + 3)));
      i += 2;
    } else bytes.push(joined.charCodeAt(i));
  }
  return new TextDecoder().decode(new Uint8Array(bytes)).replace(/\r\n/g, "\n");
}

function decodeWords(v: string): string {
  return v
    .replace(/\?=\s+=\?/g, "?==?")
    .replace(/=\?UTF-8\?B\?([^?]*)\?=/g, (_m, b64: string) =>
      new TextDecoder().decode(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))),
    );
}

type Parsed = {
  headers: Map<string, string>;
  rawHead: string;
  parts: { headers: Map<string, string>; body: string }[];
};

function headersOf(head: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]/g, " ").split("\r\n")) {
    const at = line.indexOf(":");
    map.set(line.slice(0, at).toLowerCase(), line.slice(at + 1).trim());
  }
  return map;
}

function parse(raw: string): Parsed {
  const split = raw.indexOf("\r\n\r\n");
  const rawHead = raw.slice(0, split);
  const headers = headersOf(rawHead);
  const boundary = /boundary="([^"]+)"/.exec(headers.get("content-type") ?? "")?.[1] ?? "";
  const body = raw.slice(split + 4);
  const chunks = body.split(`--${boundary}`);
  const parts = chunks.slice(1, -1).map((chunk) => {
    const c = chunk.replace(/^\r\n/, "").replace(/\r\n$/, "");
    const at = c.indexOf("\r\n\r\n");
    const h = headersOf(c.slice(0, at));
    return { headers: h, body: decodeQp(c.slice(at + 4)) };
  });
  expect(chunks.at(-1)).toBe("--\r\n");
  return { headers, rawHead, parts };
}

const textOf = (p: Parsed) => p.parts.find((x) => x.headers.get("content-type")?.startsWith("text/plain"))?.body ?? "";
const htmlOf = (p: Parsed) => p.parts.find((x) => x.headers.get("content-type")?.startsWith("text/html"))?.body ?? "";

describe("composeDigestEmail: headers", () => {
  const mail = composeDigestEmail(input([change(1), change(2)]));
  const m = parse(mail.raw);

  it("has From (ALERTS_FROM), To, Subject, Date, Message-ID and MIME-Version", () => {
    expect(m.headers.get("from")).toBe('"Geo Assess alerts" <alerts@geo-assess.example>');
    expect(m.headers.get("to")).toBe("<owner@demo.test>");
    expect(decodeWords(m.headers.get("subject") ?? "")).toBe("2 changes for your zoning alert: Epping");
    expect(m.headers.get("date")).toBe("Fri, 27 Nov 2026 17:12:41 +0000");
    expect(m.headers.get("message-id")).toBe("<1234@geo-assess.example>");
    expect(m.headers.get("mime-version")).toBe("1.0");
  });

  it("carries RFC 8058's List-Unsubscribe (the https link) and List-Unsubscribe-Post: List-Unsubscribe=One-Click", () => {
    expect(m.headers.get("list-unsubscribe")).toBe("<https://app.example.com/alerts/unsubscribe?token=abc.def.ghi>");
    expect(m.headers.get("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
  });

  it("uses CRLF line ends only, and no line over 998 characters (RFC 5322 section 2.1.1)", () => {
    expect(mail.raw.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/);
    for (const line of mail.raw.split("\r\n")) expect(line.length).toBeLessThanOrEqual(998);
  });

  it("is multipart/alternative with a text/plain then a text/html part, both UTF-8 quoted-printable", () => {
    expect(m.headers.get("content-type")).toBe('multipart/alternative; boundary="=_alert_test"');
    expect(m.parts.map((p) => p.headers.get("content-type"))).toEqual([
      "text/plain; charset=utf-8",
      "text/html; charset=utf-8",
    ]);
    for (const p of m.parts) expect(p.headers.get("content-transfer-encoding")).toBe("quoted-printable");
  });

  it("encodes a subject that is not ASCII as RFC 2047 words of at most 75 characters, decoding back to it", () => {
    const place = "Wollstonecraft–Crows Nest, ‘saved’ ✓ ".repeat(3).trim();
    const raw = composeDigestEmail(input([change(1)], { alert: { id: ALERT_ID, type: "zoning_change", place } })).raw;
    const subject = parse(raw).headers.get("subject") ?? "";
    expect(decodeWords(subject)).toBe(`1 change for your zoning alert: ${place}`);
    for (const word of subject.split(" ")) expect(word.length).toBeLessThanOrEqual(75);
    const head = raw.slice(0, raw.indexOf("\r\n\r\n"));
    for (const line of head.split("\r\n"))
      if (!line.includes("unsubscribe")) expect(line.length).toBeLessThanOrEqual(78);
  });

  it("keeps a line break out of a header: a place with CR/LF cannot add a header", () => {
    const place = "Epping\r\nBcc: victim@example.com";
    const raw = composeDigestEmail(input([change(1)], { alert: { id: ALERT_ID, type: "zoning_change", place } })).raw;
    expect(parse(raw).headers.has("bcc")).toBe(false);
  });
});

describe("composeDigestEmail: the changes", () => {
  it("shows each change: what changed, where (lot id and address), old and new values and the pack versions", () => {
    const c = change(7, { address: "23 Pembroke St, Epping" } as Partial<DigestChange>);
    const fsr = change(8, { type: "control_change", field: "fsr", old: 0.5, new: 1.5 } as Partial<DigestChange>);
    const m = parse(composeDigestEmail(input([c, fsr])).raw);
    const text = textOf(m);
    expect(text).toContain("1. Zone: lot 7//DP1007 (23 Pembroke St, Epping)\n   was: R2\n   now: R4");
    expect(text).toContain("2. Floor space ratio: lot 8//DP1008\n   was: 0.5:1\n   now: 1.5:1");
    expect(text).toContain("pack nsw-planning, version 2026-10 → 2026-11");
    expect(text).toContain("on the map: https://app.example.com/map#17/-33.770000/151.107000");
    const html = htmlOf(m);
    expect(html).toContain("<td");
    expect(html).toContain(">lot 7//DP1007 (23 Pembroke St, Epping)</a>");
    expect(html).toContain('href="https://app.example.com/map#17/-33.770000/151.107000"');
    expect(html).toMatch(/>R2<\/td><td[^>]*>R4<\/td><td[^>]*>pack nsw-planning, version 2026-10 → 2026-11</);
  });

  it("words a lot event by its lots before and after", () => {
    const ev = {
      type: "lot_change",
      kind: "subdivided",
      before: ["1//DP1"],
      after: ["2//DP2", "3//DP2"],
      point: [151, -33.8],
      key: "k",
    } as DigestChange;
    const text = textOf(parse(composeDigestEmail(input([ev])).raw));
    expect(text).toContain("1. Lot subdivided: lot 1//DP1\n   was: 1//DP1\n   now: 2//DP2, 3//DP2");
  });

  it(`lists the first ${DIGEST_MAX_LISTED} changes and links to the rest in the workspace's notifications`, () => {
    const many = Array.from({ length: 57 }, (_, i) => change(i + 1));
    const m = parse(composeDigestEmail(input(many)).raw);
    const text = textOf(m);
    expect(text).toContain(`${DIGEST_MAX_LISTED}. Zone: lot 50//DP1050`);
    expect(text).not.toContain("lot 51//DP1051");
    expect(text).toContain(
      `...and 7 more changes. See them all in the workspace: https://app.example.com/map?notifications=${ALERT_ID}`,
    );
    const html = htmlOf(m);
    expect(html.match(/<tr>/g)?.length).toBe(DIGEST_MAX_LISTED + 1);
    expect(html).toContain(
      `<a href="https://app.example.com/map?notifications=${ALERT_ID}">See them all in the workspace</a>`,
    );
    expect(decodeWords(m.headers.get("subject") ?? "")).toBe("57 changes for your zoning alert: Epping");
  });

  it("a digest of a window's publishes counts them and every change, listing the first 50 with each one's versions", () => {
    const publishes = ["2026-11", "2026-12", "2027-01"].map((to, n) => ({ packId: "nsw-planning", from: `v${n}`, to }));
    const listed = Array.from({ length: DIGEST_MAX_LISTED }, (_, i) =>
      change(i + 1, { publish: publishes[i < 30 ? 0 : i < 45 ? 1 : 2] }),
    );
    const m = parse(composeDigestEmail(input(listed, { total: 120, publishes: 3, publish: publishes[0] })).raw);
    expect(decodeWords(m.headers.get("subject") ?? "")).toBe("120 changes in 3 updates for your zoning alert: Epping");
    const text = textOf(m);
    expect(text).toContain(
      "The planning data was updated 3 times since this alert's last e-mail (pack nsw-planning). Your zoning alert on Epping found 120 changes.",
    );
    expect(text).toContain("   pack nsw-planning, version v0 → 2026-11");
    expect(text).toContain("   pack nsw-planning, version v2 → 2027-01");
    expect(text).toContain("...and 70 more changes. See them all in the workspace");
    expect(htmlOf(m)).toContain("pack nsw-planning, version v1 → 2026-12</td>");
  });

  it("with 50 or fewer, lists them all and still links to the notifications", () => {
    const text = textOf(parse(composeDigestEmail(input(Array.from({ length: 50 }, (_, i) => change(i + 1)))).raw));
    expect(text).toContain("50. Zone: lot 50//DP1050");
    expect(text).not.toContain("more change");
    expect(text).toContain(
      `See your notifications in the workspace: https://app.example.com/map?notifications=${ALERT_ID}`,
    );
  });

  it("escapes every value in the HTML part: a hostile zone, address or place is text, never markup", () => {
    const evil = change(1, {
      old: '<script>alert("x")</script>',
      new: "R4 & <b>bold</b>",
      address: `"><img src=x onerror=alert(1)>`,
    } as Partial<DigestChange>);
    const place = "<i>Epping</i> & 'Co'";
    const html = htmlOf(
      parse(composeDigestEmail(input([evil], { alert: { id: ALERT_ID, type: "zoning_change", place } })).raw),
    );
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<b>bold");
    expect(html).not.toContain("<i>Epping");
    expect(html).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;");
    expect(html).toContain("R4 &amp; &lt;b&gt;bold&lt;/b&gt;");
    expect(html).toContain("&quot;&gt;&lt;img src=x onerror=alert(1)&gt;");
    expect(html).toContain("&lt;i&gt;Epping&lt;/i&gt; &amp; &#39;Co&#39;");
  });

  it("links the unsubscribe in both parts and says in-app notifications go on", () => {
    const m = parse(composeDigestEmail(input([change(1)])).raw);
    expect(textOf(m)).toContain("Stop these e-mails: https://app.example.com/alerts/unsubscribe?token=abc.def.ghi");
    expect(htmlOf(m)).toContain(
      '<a href="https://app.example.com/alerts/unsubscribe?token=abc.def.ghi">Stop these e-mails</a>',
    );
    expect(textOf(m)).toContain("its notifications stay in the workspace");
  });
});

describe("MIME pieces", () => {
  it("quoted-printable keeps lines within 76 characters, encodes '=', non-ASCII and a line's trailing space", () => {
    const qp = quotedPrintable(`${"a".repeat(200)} = é end \nnext`);
    for (const line of qp.split("\r\n")) expect(line.length).toBeLessThanOrEqual(76);
    expect(qp).toContain("=3D");
    expect(qp).toContain("=C3=A9");
    expect(qp).toContain("end=20\r\nnext");
    expect(decodeQp(qp)).toBe(`${"a".repeat(200)} = é end \nnext`);
  });

  it("a long ASCII header folds at spaces; a non-ASCII one becomes encoded words that decode back", () => {
    const long = header("Subject", "word ".repeat(40).trim());
    for (const line of long.split("\r\n")) expect(line.length).toBeLessThanOrEqual(78);
    expect(long.replace(/\r\n /g, " ")).toBe(`Subject: ${"word ".repeat(40).trim()}`);
    const words = encodedWords("é".repeat(100));
    for (const w of words) expect(w.length).toBeLessThanOrEqual(75);
    expect(decodeWords(words.join(" "))).toBe("é".repeat(100));
  });
});
