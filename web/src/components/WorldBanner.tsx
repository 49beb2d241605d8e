// A banner while the synthetic Greater Sydney is still being built (npm run dev builds it in the background): polls
// /health until the world is ready, then goes, and tells the app so the map can load the world's pack.
import { useEffect, useRef, useState } from "react";
import type { Api, Health, WorldState } from "../api.ts";
import { WORLD_POLL_MS, worldBannerText } from "../world.ts";

export function WorldBanner({ api, onReady }: { api: Api; onReady?: () => void }) {
  const [world, setWorld] = useState<WorldState | undefined>(undefined);
  // Read in the timer's callback without restarting the polling each render.
  const ready = useRef(onReady);
  ready.current = onReady;

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let wasBuilding = false;
    const poll = async () => {
      const h = await api.get<Health>("/health").catch(() => null);
      if (stopped) return;
      if (h) setWorld(h.world);
      if (h?.world.state === "ready") {
        // Only a build seen finishing brings new packs; a world ready from the start needs nothing reloaded.
        if (wasBuilding) ready.current?.();
        return;
      }
      wasBuilding ||= h?.world.state === "building";
      timer = setTimeout(poll, WORLD_POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [api]);

  const text = worldBannerText(world);
  if (!text) return null;
  return (
    <div className="notice world-banner" role="status">
      <p>{text}. Lots, search and scoring are available once it is built; the map and your account work meanwhile.</p>
      <progress max={100} value={world?.state === "building" ? world.percent : 0} aria-hidden="true" />
    </div>
  );
}
