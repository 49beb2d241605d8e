// Views split off the first page's code. A chunk already in memory renders at once: React.lazy would still
// suspend once, and React holds a revealed Suspense boundary back for up to 300 ms (twice over for the map).
import { type ComponentType, useEffect, useState } from "react";
import type { Shell } from "./shell.ts";
import type { MapCanvasProps } from "./map/MapCanvas.tsx";
import { needsOrganisation } from "./components/NeedsOrganisation.tsx";

export type Chunk<P> = { load: () => Promise<ComponentType<P>>; loaded: () => ComponentType<P> | undefined };

function chunk<P>(importer: () => Promise<{ default: ComponentType<P> }>): Chunk<P> {
  let component: ComponentType<P> | undefined;
  let pending: Promise<ComponentType<P>> | undefined;
  const load = () =>
    (pending ??= importer().then(
      (m) => (component = m.default),
      (err: unknown) => {
        pending = undefined; // a later visit tries the download again
        throw err;
      },
    ));
  return { load, loaded: () => component };
}

export const workspaceChunk = chunk<{ shell: Shell }>(() => import("./map/Workspace.tsx"));
export const accountChunk = chunk<{ shell: Shell }>(() =>
  import("./account/Account.tsx").then((m) => ({ default: needsOrganisation(m.default) })),
);
export const dataChunk = chunk<{ shell: Shell }>(() =>
  import("./data/Data.tsx").then((m) => ({ default: needsOrganisation(m.default) })),
);
export const mapChunk = chunk<MapCanvasProps>(() => import("./map/MapCanvas.tsx"));

/** The chunk's component once its code is in (at once when it already is); a failed download goes to `onError`. */
export function useChunk<P>(c: Chunk<P>, onError: (err: unknown) => void): ComponentType<P> | undefined {
  const [got, setGot] = useState(() => ({ c, component: c.loaded() }));
  const current = got.c === c ? got.component : c.loaded();
  useEffect(() => {
    if (current) return;
    let live = true;
    c.load().then(
      (component) => live && setGot({ c, component }),
      (err: unknown) => live && onError(err),
    );
    return () => {
      live = false;
    };
  }, [c, current, onError]);
  return current;
}
