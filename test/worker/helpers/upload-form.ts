// Uploads a private pack to POST /packs through the real app, as a browser form would (file, name, layer).
import { SELF } from "cloudflare:test";
import { bearer } from "../../support/tokens.ts";

/** POSTs `collection` (a GeoJSON FeatureCollection) as lots.geojson under `name`; `layer` defaults to "lots". */
export function uploadPack(token: string, collection: unknown, name: string, layer = "lots"): Promise<Response> {
  const form = new FormData();
  form.set("file", new File([JSON.stringify(collection)], "lots.geojson"));
  form.set("name", name);
  form.set("layer", layer);
  return SELF.fetch("https://api.test/packs", { method: "POST", headers: bearer(token), body: form });
}
