// Scored sites out of the browser: CSV for spreadsheets, GeoJSON for GIS; both saved as files.
import type { SiteRow } from "./api.ts";

const cell = (v: unknown) => {
  const s = v === null || v === undefined ? "" : String(v);
  return /[",\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
};

export function sitesCsv(rows: readonly SiteRow[]): string {
  const head = ["line", "input", "lot_id", "address", "area_m2", "score", "rating", "reasons_or_error"];
  const lines = rows.map((r) =>
    r.kind === "result"
      ? [
          r.line,
          Object.values(r.input).join(" "),
          r.parcel.lot_id,
          r.parcel.address,
          r.parcel.area_m2,
          r.score,
          r.rating,
          r.reasons.join("; "),
        ]
      : [r.line, Object.values(r.input).join(" "), "", "", "", "", "", r.detail],
  );
  return [head, ...lines].map((l) => l.map(cell).join(",")).join("\n");
}

export function sitesGeoJson(rows: readonly SiteRow[]): GeoJSON.FeatureCollection {
  return {
    type: "FeatureCollection",
    features: rows.flatMap((r) =>
      r.kind === "result"
        ? [
            {
              type: "Feature" as const,
              geometry: r.parcel.geojson.geometry,
              properties: {
                lot_id: r.parcel.lot_id,
                address: r.parcel.address,
                area_m2: r.parcel.area_m2,
                score: r.score,
                rating: r.rating,
              },
            },
          ]
        : [],
    ),
  };
}

export function download(name: string, type: string, data: BlobPart): void {
  const url = URL.createObjectURL(new Blob([data], { type }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
