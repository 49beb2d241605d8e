// The interactive API reference: Scalar's standalone bundle reading our OpenAPI document.
export function docsPage(specUrl: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <meta name="viewport" content="width=device-width, initial-scale=1" />
  <title>Geospatial Assessment Service API</title>
</head>
<body>
  <noscript>This reference needs JavaScript. The raw document is at <a href="${specUrl}">${specUrl}</a>.</noscript>
  <script id="api-reference" data-url="${specUrl}"></script>
  <script src="https://cdn.jsdelivr.net/npm/@scalar/api-reference@1"></script>
</body>
</html>`;
}
