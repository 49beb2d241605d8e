// The requests of the load tool's per-route table (issue 25's list) and the goals it states at 20 ms round trip.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tileOf } from "../../src/tiles/math.ts";
import { WORLD_ID } from "../world/meta.ts";
import type { Goal, RouteCase, RouteStats } from "./per-route.ts";
import { quantile } from "./per-route.ts";
import { createUser } from "./users.ts";

/** The header and `n` rows of the Newtown example (its rows repeated past its end): sites on lots of the world. */
function exampleRows(root: string, n: number): { csv: string; points: [number, number][] } {
  const [header, ...rows] = readFileSync(join(root, "packs/examples/newtown-latlon.csv"), "utf8").trim().split("\n");
  const lines = Array.from({ length: n }, (_, i) => rows[i % rows.length] as string);
  const points = lines.map((l) => {
    const cells = l.split(",");
    return [Number(cells[cells.length - 1]), Number(cells[cells.length - 2])] as [number, number];
  });
  return { csv: `${[header, ...lines].join("\n")}\n`, points };
}

const median = (s: RouteStats) => quantile(s.ms, 0.5);
const medianFirst = (s: RouteStats) => quantile(s.firstEventMs, 0.5);
const maxStatements = (s: RouteStats) => Math.max(...s.counts.map((c) => c.statements));
const under = (ms: number): Goal => ({ text: `p50 < ${ms} ms`, met: (s) => median(s) < ms });
const firstUnder = (ms: number): Goal => ({ text: `first event < ${ms} ms`, met: (s) => medianFirst(s) < ms });
const statementsAtMost = (n: number): Goal => ({ text: `≤ ${n} stmt`, met: (s) => maxStatements(s) <= n });
const both = (a: Goal, b: Goal): Goal => ({ text: `${a.text}, ${b.text}`, met: (s) => a.met(s) && b.met(s) });

export interface CaseRow {
  case: RouteCase;
  goal?: Goal;
  firstEventGoal?: Goal;
}

export function routeCases(opts: { root: string; api: string; idpUrl: string; tokens: readonly string[] }): CaseRow[] {
  const { csv, points } = exampleRows(opts.root, 5);
  const fifty = exampleRows(opts.root, 50).csv;
  // The first example site: a lot of the synthetic Greater Sydney, as `npm run pack -- examples` picked it.
  const NEWTOWN = points[0] as [number, number];
  const token = (i: number) => opts.tokens[i % opts.tokens.length] as string;
  const tile = tileOf(NEWTOWN[0], NEWTOWN[1], 15);
  const json = (body: unknown) => () => ({
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  const has = (marker: string) => (text: string) =>
    text.includes(marker) ? undefined : `no ${marker}: ${text.slice(-200)}`;
  const read = (name: string, path: string, goal?: Goal): CaseRow => ({ case: { name, token, path }, goal });
  // The caller's membership remembered (as for anyone active in the last 30 s): a batch row counts the batch's own work.
  const member = async (t: string) => {
    const res = await fetch(`${opts.api}/billing/credits/balance`, { headers: { Authorization: `Bearer ${t}` } });
    if (!res.ok) throw new Error(`balance before a batch: ${res.status}`);
  };
  const batch = (name: string, file: string): CaseRow["case"] => ({
    name,
    token,
    path: "/batch/upload",
    stream: true,
    prepare: member,
    init: () => {
      const form = new FormData();
      form.set("file", new File([file], "sites.csv", { type: "text/csv" }));
      return { method: "POST", body: form };
    },
    check: has("event: batch_complete"),
  });
  return [
    read("balance", "/billing/credits/balance", under(50)),
    read("org", "/billing/org", statementsAtMost(1)),
    read("tiers", "/billing/tiers", statementsAtMost(1)),
    read("geocode", "/geocode?suburb=Newtown", statementsAtMost(0)),
    read("parcels", `/parcels?lng=${NEWTOWN[0]}&lat=${NEWTOWN[1]}`, statementsAtMost(1)),
    read("tiles", `/tiles/${WORLD_ID}/${tile.z}/${tile.x}/${tile.y}.mvt`, statementsAtMost(1)),
    // The valuation assumptions, charge, rows stored, settle: 4 statements however many rows, plus a lease renewal per
    // 10 s of streaming.
    { case: batch("batch 5 rows", csv), goal: both(under(150), statementsAtMost(4)), firstEventGoal: firstUnder(60) },
    { case: batch("batch 50 rows", fifty), goal: statementsAtMost(4) },
    {
      case: {
        name: "chat question",
        token,
        path: "/chat",
        stream: true,
        init: json({ question: "Which lots in Newtown are zoned R2?" }),
        check: (text) => has("data: [DONE]")(text) ?? (text.includes('"type":"error"') ? text.slice(-200) : undefined),
      },
      goal: under(150),
      firstEventGoal: firstUnder(60),
    },
    {
      case: {
        name: "report 5 sites",
        token,
        path: "/report/generate",
        stream: true,
        init: json({
          scores: points.map(() => ({})),
          parcel_geojsons: points.map((coordinates) => ({ type: "Point", coordinates })),
          location: "Newtown, NSW",
        }),
        check: has("event: report_complete"),
      },
      goal: under(150),
      firstEventGoal: firstUnder(60),
    },
    {
      case: {
        name: "post-signup",
        token: async (i) => (await createUser(opts.idpUrl, `signup-${i}`)).token,
        path: "/auth/post-signup",
        init: () => ({ method: "POST" }),
      },
      goal: statementsAtMost(4),
    },
  ];
}
