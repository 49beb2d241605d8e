// Scored sites out of the browser: CSV for spreadsheets (csv.ts), GeoJSON for GIS; both saved as files.
import type { SiteRow } from "./site-row.ts";

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
