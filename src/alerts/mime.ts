// A small RFC 5322 / RFC 2045 message composer for the alert digest: headers folded or RFC 2047-encoded, a
// multipart/alternative body of text and HTML in quoted-printable, CRLF throughout. Pure: the caller supplies the
// Date, Message-ID and boundary, so the same input gives the same bytes.

const CRLF = "\r\n";
const utf8 = new TextEncoder();

export type Mailbox = { address: string; name?: string };

export interface MimeMessage {
  from: Mailbox;
  to: Mailbox;
  subject: string;
  date: Date;
  /** Without angle brackets: `id@domain`. */
  messageId: string;
  /** Further headers in order (List-Unsubscribe...); values are ASCII. */
  headers?: readonly [name: string, value: string][];
  text: string;
  html: string;
  /** Must not occur in the encoded parts; one starting "=_" never does in quoted-printable. */
  boundary: string;
}

// A header value never carries a line break of its own: folding is ours to add.
const oneLine = (v: string): string => v.replace(/\p{Cc}+/gu, " ").trim();

const ASCII_PRINTABLE = /^[\u0020-\u007e]*$/;
const ADDRESS = /^[^\s<>()",;:@\\[\]]+@[^\s<>()",;:@\\[\]]+$/;

/** A plausible bare address (no display name, no line breaks): what an envelope and an angle-addr may carry. */
export function isAddress(v: string): boolean {
  return v.length <= 254 && ADDRESS.test(v);
}

function base64(bytes: Uint8Array): string {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

// An encoded-word holds at most 75 characters and its line 76 (RFC 2047 section 2): 39 bytes make a 64-character
// word, which fits after `Subject: ` with room to spare.
const WORD_BYTES = 39;

/** RFC 2047 B-encoded words, split between characters so no word exceeds 75 characters. */
export function encodedWords(value: string): string[] {
  const words: string[] = [];
  let chunk = "";
  for (const ch of value) {
    if (chunk && utf8.encode(chunk + ch).length > WORD_BYTES) {
      words.push(chunk);
      chunk = "";
    }
    chunk += ch;
  }
  if (chunk) words.push(chunk);
  return words.map((w) => `=?UTF-8?B?${base64(utf8.encode(w))}?=`);
}

/** `Name: value`, folded at spaces to stay within 78 characters where it can; non-ASCII text is encoded. */
export function header(name: string, value: string): string {
  const clean = oneLine(value);
  const tokens = ASCII_PRINTABLE.test(clean) ? clean.split(/ +/) : encodedWords(clean);
  const lines: string[] = [];
  let line = `${name}:`;
  for (const t of tokens) {
    if (line.length + 1 + t.length > 78 && line.length > name.length + 1) {
      lines.push(line);
      line = "";
    }
    line += ` ${t}`;
  }
  lines.push(line);
  return lines.join(CRLF);
}

/** `"Name" <address>` (the name quoted, or encoded when not ASCII); a bare `<address>` without one. */
export function mailbox(m: Mailbox): string {
  if (!isAddress(m.address)) throw new Error(`Not an e-mail address: ${JSON.stringify(m.address)}`);
  const name = m.name ? oneLine(m.name) : "";
  if (!name) return `<${m.address}>`;
  const display = ASCII_PRINTABLE.test(name)
    ? `"${name.replace(/["\\]/g, (c) => `\\${c}`)}"`
    : encodedWords(name).join(" ");
  return `${display} <${m.address}>`;
}

/** RFC 5322 date-time in UTC: `Fri, 27 Nov 2026 17:12:41 +0000`. */
export function rfc5322Date(d: Date): string {
  return d.toUTCString().replace(/GMT$/, "+0000");
}

const hex = (b: number): string => `=${b.toString(16).toUpperCase().padStart(2, "0")}`;

/** Quoted-printable (RFC 2045 section 6.7) of UTF-8 text: lines of at most 76 characters, CRLF line breaks. */
export function quotedPrintable(text: string): string {
  return text
    .replace(/\r\n?/g, "\n")
    .split("\n")
    .map((line) => {
      const bytes = utf8.encode(line);
      const out: string[] = [];
      let cur = "";
      bytes.forEach((b, i) => {
        const last = i === bytes.length - 1;
        // Printable ASCII but "=" stays; a space or tab only when not ending the line (it would be stripped).
        const literal = (b >= 33 && b <= 126 && b !== 61) || ((b === 32 || b === 9) && !last);
        const token = literal ? String.fromCharCode(b) : hex(b);
        // A soft break ("=" at the end) keeps each encoded line within 76 characters.
        if (cur.length + token.length > 75) {
          out.push(`${cur}=`);
          cur = "";
        }
        cur += token;
      });
      out.push(cur);
      return out.join(CRLF);
    })
    .join(CRLF);
}

function part(type: string, body: string): string {
  return [
    `Content-Type: ${type}; charset=utf-8`,
    "Content-Transfer-Encoding: quoted-printable",
    "",
    quotedPrintable(body),
  ].join(CRLF);
}

/** The whole message, headers and body, as it goes to the mail server. */
export function composeMime(m: MimeMessage): string {
  if (!/^=_[0-9A-Za-z'()+_,./:?-]{1,68}$/.test(m.boundary)) throw new Error(`Unusable MIME boundary: ${m.boundary}`);
  if (!/^[^\s<>@]+@[^\s<>@]+$/.test(m.messageId)) throw new Error(`Unusable Message-ID: ${m.messageId}`);
  const head = [
    header("From", mailbox(m.from)),
    header("To", mailbox(m.to)),
    header("Subject", m.subject),
    header("Date", rfc5322Date(m.date)),
    header("Message-ID", `<${m.messageId}>`),
    "MIME-Version: 1.0",
    ...(m.headers ?? []).map(([name, value]) => header(name, value)),
    `Content-Type: multipart/alternative; boundary="${m.boundary}"`,
  ];
  const b = m.boundary;
  return [...head, "", `--${b}`, part("text/plain", m.text), `--${b}`, part("text/html", m.html), `--${b}--`, ""].join(
    CRLF,
  );
}
