// The marker `npm run dev` keeps in R2 while it builds the synthetic world in the background (docs/design.md
// section 4): present, the world's data routes answer 503 and the registry looks again every few seconds.

export const BUILDING_KEY = "registry/building.json";

/** What the background build says of itself: the pack it will publish, how far it is, since when. */
export type WorldBuilding = { pack_id: string; percent: number; phase: string; started_at: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null;

/** The marker's text as a WorldBuilding; null when it is not one (a damaged marker must not close the routes). */
export function parseBuilding(text: string): WorldBuilding | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isObject(v)) return null;
  const { pack_id, percent, phase, started_at } = v;
  if (typeof pack_id !== "string" || pack_id.length === 0) return null;
  if (typeof percent !== "number" || !Number.isFinite(percent)) return null;
  return {
    pack_id,
    percent: Math.min(99, Math.max(0, Math.floor(percent))),
    phase: typeof phase === "string" ? phase : "",
    started_at: typeof started_at === "string" ? started_at : "",
  };
}

/** The marker in `bucket`, or null when no build is under way. */
export async function readBuilding(bucket: R2Bucket): Promise<WorldBuilding | null> {
  const obj = await bucket.get(BUILDING_KEY);
  return obj ? parseBuilding(await obj.text()) : null;
}

/** The sentence a world route answers while the build runs. */
export function buildingDetail(b: WorldBuilding): string {
  return `The synthetic Greater Sydney is still being built (${b.percent}%); try again shortly`;
}

/** Puts the marker (the dev stack's build reports through the Worker, so the Worker never reads a half-written one). */
export async function putBuilding(bucket: R2Bucket, marker: WorldBuilding): Promise<void> {
  await bucket.put(BUILDING_KEY, JSON.stringify(marker), { httpMetadata: { contentType: "application/json" } });
}

/** Removes the marker: the world is published, or will not be. */
export async function clearBuilding(bucket: R2Bucket): Promise<void> {
  await bucket.delete(BUILDING_KEY);
}
