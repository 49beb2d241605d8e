// Pack fixtures for workerd tests: the committed demo packs (v2), and tiny packs built on the fly (v2, or v1 for a
// test of the v1 reader).
import { env } from "cloudflare:workers";
import { inject } from "vitest";
import { columnarOf, encodeColumnar, PAGED_VERSION, pagedObjectMetadata } from "../../src/packs/paged/index.ts";
import { formatOfBytes } from "../../src/packs/pack-bytes.ts";
import { encodePack } from "../../src/packs/v1/encode.ts";
import { buildLayer, type InputFeature } from "../../scripts/pack/layers.ts";

/** A pack's bytes from base64 (the fixtures' trailing newline allowed). */
export function fromBase64(b64: string): Uint8Array {
  const bin = atob(b64.trim());
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Puts a pack as `npm run dev` does: a v2 pack with the custom metadata that opens it in one range read. */
export async function putPack(key: string, bytes: Uint8Array): Promise<void> {
  const customMetadata = formatOfBytes(bytes) === PAGED_VERSION ? pagedObjectMetadata(bytes, key) : undefined;
  await env.PACKS.put(key, bytes, customMetadata ? { customMetadata } : {});
}

/** Puts every committed demo pack under public/ in the test bucket; returns their names. */
export async function putDemoPacks(): Promise<string[]> {
  const packs = inject("demoPacks");
  for (const [name, b64] of Object.entries(packs)) await putPack(`public/${name}`, fromBase64(b64));
  return Object.keys(packs);
}

export function demoPackBytes(name: string): Uint8Array {
  const b64 = inject("demoPacks")[name];
  if (!b64) throw new Error(`no demo pack ${name}`);
  return fromBase64(b64);
}

/** A square suburb polygon of `sizeDeg` degrees with its south-west corner at (lon, lat). */
export function squareSuburb(name: string, lon: number, lat: number, sizeDeg = 0.01): InputFeature {
  return {
    properties: { name, state: "NSW", sal_code: "99999" },
    geometry: {
      type: "Polygon",
      coordinates: [
        [
          [lon, lat],
          [lon + sizeDeg, lat],
          [lon + sizeDeg, lat + sizeDeg],
          [lon, lat + sizeDeg],
          [lon, lat],
        ],
      ],
    },
  };
}

/** A one-layer pack of suburbs, enough to tell packs apart in cache and merge tests; v1 only for the v1 reader's. */
export async function suburbPack(
  id: string,
  version: string,
  suburbs: InputFeature[],
  { format = "v2" }: { format?: "v1" | "v2" } = {},
): Promise<Uint8Array> {
  const meta = { title: id, attribution: "test fixture", licence: "CC0" };
  const layer = buildLayer("suburbs", suburbs, true).layer;
  if (format === "v1") return encodePack({ id, version, meta, layers: [layer] });
  return encodeColumnar([columnarOf(layer)], { id, version, meta });
}
