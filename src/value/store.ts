// An organisation's valuation assumptions, versioned and append-only (drizzle/0010): the latest is current; an
// organisation that never edited them reads the shipped defaults as version 0.
import { desc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client.ts";
import { valuationAssumptions } from "../db/schema.ts";
import { type Assumptions, type AssumptionsDocument, AssumptionsSchema } from "./assumptions.ts";
import { DEFAULT_ASSUMPTIONS } from "./defaults/assumptions.ts";

export const DEFAULTS_VERSION = 0;
const HISTORY_LIMIT = 100;

export interface AssumptionsVersion {
  version: number;
  updated_at: string | null;
  updated_by: string | null;
  illustrative: boolean;
}

/** The shipped defaults as a version: illustrative, made by no one. */
export function defaultsDocument(): AssumptionsDocument {
  return { ...DEFAULT_ASSUMPTIONS, version: DEFAULTS_VERSION, updated_at: null, updated_by: null, illustrative: true };
}

type Row = typeof valuationAssumptions.$inferSelect;

function toDocument(r: Row): AssumptionsDocument {
  // Stored only after the schema passed it; parsed again so an older document missing a later field fails loudly.
  const figures: Assumptions = AssumptionsSchema.parse(r.document);
  return {
    ...figures,
    version: r.version,
    updated_at: r.createdAt.toISOString(),
    updated_by: r.createdBy,
    illustrative: false,
  };
}

/** The organisation's current assumptions: its latest version, else the defaults (version 0). */
export async function currentAssumptions(args: { db: Db; orgId: string }): Promise<AssumptionsDocument> {
  const [row] = await args.db
    .select()
    .from(valuationAssumptions)
    .where(eq(valuationAssumptions.orgId, args.orgId))
    .orderBy(desc(valuationAssumptions.version))
    .limit(1);
  return row ? toDocument(row) : defaultsDocument();
}

/** Stores the whole document as the organisation's next version; versions are counted under its lock. */
export async function saveAssumptions(args: {
  db: Db;
  orgId: string;
  userId: string;
  assumptions: Assumptions;
}): Promise<AssumptionsDocument> {
  const { db, orgId, userId, assumptions } = args;
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`valuation-assumptions:${orgId}`}))`);
    const [last] = await tx
      .select({ version: valuationAssumptions.version })
      .from(valuationAssumptions)
      .where(eq(valuationAssumptions.orgId, orgId))
      .orderBy(desc(valuationAssumptions.version))
      .limit(1);
    const [row] = await tx
      .insert(valuationAssumptions)
      .values({ orgId, version: (last?.version ?? DEFAULTS_VERSION) + 1, document: assumptions, createdBy: userId })
      .returning();
    if (!row) throw new Error("valuation_assumptions insert returned no row");
    return toDocument(row);
  });
}

/** Every version, newest first (at most 100), the defaults last: who made each and when. */
export async function assumptionsHistory(args: { db: Db; orgId: string }): Promise<AssumptionsVersion[]> {
  const rows = await args.db
    .select({
      version: valuationAssumptions.version,
      createdAt: valuationAssumptions.createdAt,
      createdBy: valuationAssumptions.createdBy,
    })
    .from(valuationAssumptions)
    .where(eq(valuationAssumptions.orgId, args.orgId))
    .orderBy(desc(valuationAssumptions.version))
    .limit(HISTORY_LIMIT);
  const edits = rows.map((r) => ({
    version: r.version,
    updated_at: r.createdAt.toISOString(),
    updated_by: r.createdBy,
    illustrative: false,
  }));
  return [...edits, { version: DEFAULTS_VERSION, updated_at: null, updated_by: null, illustrative: true }];
}
