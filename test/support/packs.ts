// Pack fixtures for workerd tests: the committed demo packs, and tiny packs built on the fly.
import { env } from "cloudflare:workers";
import { inject } from "vitest";
import { encodePack } from "../../src/packs/v1/encode.ts";
import { buildLayer, type InputFeature } from "../../scripts/pack/layers.ts";

function fromBase64(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** Puts every committed demo pack under public/ in the test bucket; returns their names. */
export async function putDemoPacks(): Promise<string[]> {
  const packs = inject("demoPacks");
  for (const [name, b64] of Object.entries(packs)) await env.PACKS.put(`public/${name}`, fromBase64(b64));
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

/** A one-layer pack of suburbs, enough to tell packs apart in cache and merge tests. */
export function suburbPack(id: string, version: string, suburbs: InputFeature[]): Uint8Array {
  return encodePack({
    id,
    version,
    meta: { title: id, attribution: "test fixture", licence: "CC0" },
    layers: [buildLayer("suburbs", suburbs, true).layer],
  });
}
