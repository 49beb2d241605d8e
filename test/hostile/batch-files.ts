// CSV files for the batch charging tests: every row scorable, or scorable and unscorable rows in a known order.

const header = "site,latitude,longitude";
// The lots of packs/examples/newtown-latlon.csv, each inside a demo-pack lot.
const sites = [
  [-33.897466, 151.175546],
  [-33.898897, 151.177005],
  [-33.899094, 151.177307],
  [-33.898887, 151.179075],
  [-33.899631, 151.177772],
  [-33.89885, 151.179391],
  [-33.900396, 151.179867],
  [-33.897285, 151.182102],
  [-33.898043, 151.179052],
  [-33.899412, 151.179639],
].map(([lat, lng], i) => `Newtown site ${i + 1},${lat},${lng}`);

/** `n` Newtown sites (the example file's ten, repeated): every row scores. */
export function scorableRows(n: number): string {
  return [header, ...Array.from({ length: n }, (_, i) => sites[i % sites.length])].join("\n");
}

/** Rows in this order, `true` a Newtown site that scores, `false` a point outside every pack (a `site_error`). */
export function rowsLike(pattern: readonly boolean[]): string {
  const row = (ok: boolean, i: number) => (ok ? sites[i % sites.length] : `far ${i},-20.0,${130 + i / 100}`);
  return [header, ...pattern.map(row)].join("\n");
}
