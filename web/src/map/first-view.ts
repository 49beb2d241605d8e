// Where the workspace's map opens (issue 51, item 7: usable means the first lots tile drawn, and lots are drawn from
// zoom 14): a link's or reload's view from the URL, else a suburb at the lots' zoom, never the whole region, where
// no lot is drawn and a person must zoom in before any lot can be clicked.
import type { BBox } from "./controller.ts";
import { readHash, type View } from "./hash.ts";
import { WARM_VIEW } from "./warm.ts";

/** Lots are in the tiles from this zoom on (src/tiles/layers.ts): a search lands at least here. */
export const LOTS_ZOOM = 14;

const inside = ([x, y]: [number, number], b: BBox) => x >= b[0] && x <= b[2] && y >= b[1] && y <= b[3];

/**
 * The URL's view; else where the page's map was warmed (Parramatta, the region's middle: its basemap is loaded there
 * and nothing moves) when the lots pack covers it; else the middle of the lots pack's box, at the lots' zoom.
 */
export function firstView(home: BBox, hash = location.hash): View {
  const linked = readHash(hash);
  if (linked) return linked;
  if (inside(WARM_VIEW.center, home)) return { ...WARM_VIEW, bearing: 0 };
  return { center: [(home[0] + home[2]) / 2, (home[1] + home[3]) / 2], zoom: LOTS_ZOOM, bearing: 0 };
}
