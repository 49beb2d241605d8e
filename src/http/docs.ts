// The API reference, rendered on the server from our own OpenAPI document: no script and no CDN, so it
// works offline and under a strict Content-Security-Policy.

interface Operation {
  summary?: string;
  description?: string;
  security?: unknown[];
  parameters?: { name: string; in: string; required?: boolean; description?: string }[];
  requestBody?: { content?: Record<string, unknown> };
  responses?: Record<string, { description?: string }>;
}

export interface OpenApiDoc {
  info: { title: string; version: string; description?: string };
  paths?: object;
}

const METHODS = new Set(["get", "put", "post", "delete", "patch", "head", "options"]);

const esc = (s: string): string =>
  s.replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch);

// `code` spans in descriptions become <code>; everything else is escaped text.
const prose = (s: string): string => esc(s).replace(/`([^`]+)`/g, "<code>$1</code>");

function operation(method: string, path: string, op: Operation): string {
  const params = (op.parameters ?? [])
    .map(
      (p) =>
        `<li><code>${esc(p.name)}</code> (${esc(p.in)}${p.required ? ", required" : ""})${p.description ? `: ${prose(p.description)}` : ""}</li>`,
    )
    .join("");
  const body = Object.keys(op.requestBody?.content ?? {})
    .map((t) => `<code>${esc(t)}</code>`)
    .join(", ");
  const responses = Object.entries(op.responses ?? {})
    .map(([status, r]) => `<li><code>${esc(status)}</code> ${prose(r.description ?? "")}</li>`)
    .join("");
  return `<section id="${esc(`${method}-${path}`)}">
<h3><span class="m">${esc(method.toUpperCase())}</span> <code>${esc(path)}</code>${op.security?.length ? ' <span class="a">bearer</span>' : ""}</h3>
${op.summary ? `<p><strong>${prose(op.summary)}</strong></p>` : ""}${op.description ? `<p>${prose(op.description)}</p>` : ""}
${params ? `<p>Parameters</p><ul>${params}</ul>` : ""}${body ? `<p>Body: ${body}</p>` : ""}
<p>Responses</p><ul>${responses}</ul>
</section>`;
}

export function docsPage(doc: OpenApiDoc, specUrl: string): string {
  const paths = Object.entries(doc.paths ?? {}) as [string, Record<string, Operation>][];
  const ops = paths.flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => METHODS.has(method))
      .map(([method, op]) => operation(method, path, op)),
  );
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>${esc(doc.info.title)} API</title>
  <style>
    body { font: 15px/1.5 system-ui, sans-serif; max-width: 960px; margin: 2rem auto; padding: 0 1rem; color: #1b1f24; }
    section { border-top: 1px solid #d0d7de; padding: .5rem 0; }
    code { background: #f3f4f6; padding: 0 .25rem; border-radius: 3px; }
    .m { font-weight: 700; color: #0b5cad; } .a { font-size: .8rem; color: #6e7781; }
  </style>
</head>
<body>
  <h1>${esc(doc.info.title)} <small>${esc(doc.info.version)}</small></h1>
  ${doc.info.description ? `<p>${prose(doc.info.description)}</p>` : ""}
  <p>The machine-readable document is at <a href="${esc(specUrl)}">${esc(specUrl)}</a> (OpenAPI 3.1); load it into any OpenAPI client or viewer.</p>
  ${ops.join("\n")}
</body>
</html>`;
}
