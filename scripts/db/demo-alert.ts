// The demo team's saved site and alert (docs/design.md section 12): a lot the demo's second version rezones, watched
// for zoning changes in the app and by e-mail, so `npm run pack -- publish` of that version fires it.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { sql } from "drizzle-orm";
import type { NeonDatabase } from "drizzle-orm/neon-serverless";
import { readPackBytes } from "../../src/packs/pack-bytes.ts";
import { demoV2Plan } from "../pack/demo-v2.ts";
import { DEMO_ORG, DEMO_USERS } from "./demo-seed.ts";

export const DEMO_SITE_ID = "0d000000-0000-4000-8000-00000000a001";
export const DEMO_ALERT_ID = "0d000000-0000-4000-8000-00000000a002";
const DEMO_PACK = fileURLToPath(new URL("../../packs/sydney-demo.pack", import.meta.url));

/** Safe on every start: an existing site or alert is left as it is (one the team removed comes back). */
export async function seedDemoAlert(db: Pick<NeonDatabase, "execute">): Promise<{ lotId: string }> {
  const pack = readPackBytes(readFileSync(DEMO_PACK), DEMO_PACK);
  const lot = demoV2Plan(pack).rezoned[0];
  if (!lot) throw new Error("the demo pack has no lot its second version rezones");
  const owner = DEMO_USERS[0].id;
  await db.execute(sql`
    insert into saved_sites (id, org_id, lot_id, pack_id, lng, lat, bbox, note, created_by)
    values (${DEMO_SITE_ID}, ${DEMO_ORG.id}, ${lot.lotId}, ${pack.id}, ${lot.point[0]}, ${lot.point[1]},
      ${JSON.stringify(lot.bbox)}::json, 'Demo: rezoned R2 to R3 in the demo pack''s second version', ${owner})
    on conflict do nothing`);
  await db.execute(sql`
    insert into alerts (id, org_id, alert_type, target, saved_site_id, channels, created_by)
    select ${DEMO_ALERT_ID}, s.org_id, 'zoning_change', json_build_object('saved_site_id', s.id), s.id,
      '["in_app","email"]'::json, ${owner}
    from saved_sites s where s.org_id = ${DEMO_ORG.id} and s.lot_id = ${lot.lotId}
    on conflict (id) do nothing`);
  return { lotId: lot.lotId };
}
