// The requests of the load tool's per-route table (issue 25's list) and the goals it states at 20 ms round trip.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tileOf } from "../../src/tiles/math.ts";
import type { Goal, RouteCase, RouteStats } from "./per-route.ts";
import { quantile } from "./per-route.ts";
import { createUser } from "./users.ts";

const NEWTOWN = [151.175546, -33.897466] as const;
const DEMO_PACK = "sydney-demo";

/** The header and first five rows of the Newtown example: five sites, each on a real lot of the demo pack. */
function fiveRows(root: string): { csv: string; points: [number, number][] } {
  const lines = readFileSync(join(root, "packs/examples/newtown-latlon.csv"), "utf8").trim().split("\n").slice(0, 6);
  const points = lines.slice(1).map((l) => {
    const cells = l.split(",");
    return [Number(cells[cells.length - 1]), Number(cells[cells.length - 2])] as [number, number];
  });
  return { csv: `${lines.join("\n")}\n`, points };
}

const median = (s: RouteStats) => quantile(s.ms, 0.5);
const medianFirst = (s: RouteStats) => quantile(s.firstEventMs, 0.5);
const maxStatements = (s: RouteStats) => Math.max(...s.counts.map((c) => c.statements));
const under = (ms: number): Goal => ({ text: `p50 < ${ms} ms`, met: (s) => median(s) < ms });
const firstUnder = (ms: number): Goal => ({ text: `first event < ${ms} ms`, met: (s) => medianFirst(s) < ms });
const statementsAtMost = (n: number): Goal => ({ text: `≤ ${n} stmt`, met: (s) => maxStatements(s) <= n });

export interface CaseRow {
  case: RouteCase;
  goal?: Goal;
  firstEventGoal?: Goal;
}

export function routeCases(opts: { root: string; idpUrl: string; tokens: readonly string[] }): CaseRow[] {
  const { csv, points } = fiveRows(opts.root);
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
  return [
    read("balance", "/billing/credits/balance", under(50)),
    read("org", "/billing/org", statementsAtMost(1)),
    read("tiers", "/billing/tiers", statementsAtMost(1)),
    read("geocode", "/geocode?suburb=Newtown", statementsAtMost(0)),
    read("parcels", `/parcels?lng=${NEWTOWN[0]}&lat=${NEWTOWN[1]}`, statementsAtMost(1)),
    read("tiles", `/tiles/${DEMO_PACK}/${tile.z}/${tile.x}/${tile.y}.mvt`, statementsAtMost(1)),
    {
      case: {
        name: "batch 5 rows",
        token,
        path: "/batch/upload",
        stream: true,
        init: () => {
          const form = new FormData();
          form.set("file", new File([csv], "five.csv", { type: "text/csv" }));
          return { method: "POST", body: form };
        },
        check: has("event: batch_complete"),
      },
      goal: under(150),
      firstEventGoal: firstUnder(60),
    },
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
