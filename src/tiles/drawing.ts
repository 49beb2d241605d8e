// How tiles are drawn, as a version: part of every tile's URL, ETag and edge-cache key, so tiles drawn by older code
// are never served from a browser's or the edge's cache (a pack's version names only its data). Bump it with any
// change to src/tiles: test/unit/tiles/drawing-version.test.ts fails until the change is recorded.
export const TILE_DRAWING = "d6";
