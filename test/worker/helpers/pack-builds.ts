// Waits for a private pack answered 202 (built by the pack-build queue) to be ready, or failed, in GET /packs.
import { SELF } from "cloudflare:test";
import { bearer } from "../../support/tokens.ts";
import { until } from "./wait.ts";

export type BuildState = { id: string; state?: string; progress?: number; failure?: string | null };

export function untilBuilt(packId: string, token: string, ms = 120_000): Promise<BuildState | undefined> {
  return until(
    `pack ${packId} to be built`,
    async () =>
      (await (await SELF.fetch("https://api.test/packs", { headers: bearer(token) })).json<BuildState[]>()).find(
        (p) => p.id === packId,
      ),
    (p) => p?.state === "ready" || p?.state === "failed",
    ms,
  );
}
