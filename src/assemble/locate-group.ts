// The lots a scoring request names as one site (docs/design.md section 14), found and checked before any charge:
// 2 to 8 distinct lots of one pack, each adjoining the rest as the assembly's adjacency has it.
import type { PackArea } from "../packs/request-pages.ts";
import { parcelByLot, type ParcelHit } from "../packs/spatial.ts";
import type { Pack } from "../packs/types.ts";
import { adjacencyOf, MIN_SHARED_M } from "./adjacency.ts";
import { groupIdOf } from "./group-id.ts";
import { assemblyKey, type ReadLot, readLot } from "./read-lots.ts";
import type { Adjacency } from "./types.ts";

export const MIN_GROUP_LOTS = 2;
export const MAX_GROUP_LOTS = 8;

/** A lot of the group: where it was found, and what the assembly engine reads of it. */
export type GroupMember = { hit: ParcelHit; pack: Pack; read: ReadLot };

export type LocatedGroup = {
  groupId: string;
  /** In the order of `lotIds`: the lots' ids as their pack spells them, sorted. */
  members: GroupMember[];
  lotIds: string[];
};

/** Why a group cannot be scored: `not_found` is a 404, the rest 422s; each detail a sentence naming the lot. */
export type GroupRefusal = { ok: false; kind: "not_found" | "invalid"; detail: string };

export type GroupLookup = { ok: true; group: LocatedGroup } | GroupRefusal;

/** The pack pages a group's lots need read. */
export const groupAreas = (lotIds: readonly string[]): PackArea[] => lotIds.map((lotId) => ({ lotId }));

/** Why a group of `n` lots cannot be scored for its count alone, or null. */
export function countProblem(n: number): string | null {
  if (n >= MIN_GROUP_LOTS && n <= MAX_GROUP_LOTS) return null;
  const given = `${n} lot id${n === 1 ? " was" : "s were"} given`;
  return `An amalgamation is ${MIN_GROUP_LOTS} to ${MAX_GROUP_LOTS} adjoining lots: ${given}, give ${n < MIN_GROUP_LOTS ? `at least ${MIN_GROUP_LOTS}` : `at most ${MAX_GROUP_LOTS}`} lot ids.`;
}

const refuse = (kind: GroupRefusal["kind"], detail: string): GroupRefusal => ({ ok: false, kind, detail });
const shown = (id: string) => id.trim().slice(0, 100);

// The first pack holding the lot, in the caller's order (as parcelByLot searches them), with that pack.
function find(packs: readonly Pack[], lotId: string): GroupMember | null {
  for (const pack of packs) {
    const hit = parcelByLot([pack], lotId);
    if (hit) return { hit, pack, read: readLot(pack, hit.index, assemblyKey(pack, hit.lotId ?? ""), true, packs) };
  }
  return null;
}

// The connected parts of the group, largest first (ties: the one holding the largest lot).
function parts(members: readonly GroupMember[], adjacency: Adjacency): GroupMember[][] {
  const byKey = new Map(members.map((m) => [m.read.lot.id, m]));
  const seen = new Set<string>();
  const out: GroupMember[][] = [];
  for (const m of members) {
    if (seen.has(m.read.lot.id)) continue;
    const part: GroupMember[] = [];
    const queue = [m.read.lot.id];
    seen.add(m.read.lot.id);
    while (queue.length > 0) {
      const key = queue.pop() as string;
      part.push(byKey.get(key) as GroupMember);
      for (const n of adjacency.get(key) ?? [])
        if (byKey.has(n.id) && !seen.has(n.id)) {
          seen.add(n.id);
          queue.push(n.id);
        }
    }
    out.push(part);
  }
  const largest = (p: GroupMember[]) => Math.max(...p.map((x) => x.read.lot.areaM2));
  return out.sort((a, b) => b.length - a.length || largest(b) - largest(a));
}

const list = (ids: readonly string[]) =>
  ids.length === 1 ? (ids[0] as string) : `${ids.slice(0, -1).join(", ")} and ${ids[ids.length - 1]}`;

/** The group's lots found in `packs` and checked: a 404 naming an unknown lot, or a 422 saying what is wrong. */
export function locateGroup(packs: readonly Pack[], lotIds: readonly string[]): GroupLookup {
  const count = countProblem(lotIds.length);
  if (count !== null) return refuse("invalid", count);
  const members: GroupMember[] = [];
  const keys = new Map<string, string>();
  for (const id of lotIds) {
    const m = find(packs, id);
    if (!m) return refuse("not_found", `Lot not found: ${shown(id)}`);
    const twice = keys.get(m.read.lot.id);
    if (twice !== undefined)
      return refuse("invalid", `Lot ${shown(id)} is named twice (as ${twice} too): each lot counts once.`);
    keys.set(m.read.lot.id, shown(id));
    members.push(m);
  }
  const packIds = new Set(members.map((m) => `${m.pack.id}@${m.pack.version}`));
  if (packIds.size > 1) {
    const where = members.map((m) => `${m.hit.lotId} in ${m.pack.id}`).join(", ");
    return refuse("invalid", `An amalgamation's lots must come from one pack: ${where}.`);
  }
  const { adjacency } = adjacencyOf(members.map((m) => m.read.shape));
  const [main, ...apart] = parts(members, adjacency);
  if (main !== undefined && apart.length > 0) {
    const away = apart.flat().map((m) => m.hit.lotId ?? "a lot");
    return refuse(
      "invalid",
      `${away.length === 1 ? "Lot" : "Lots"} ${list(away)} ${away.length === 1 ? "does" : "do"} not adjoin the rest of the group: lots adjoin where they share at least ${MIN_SHARED_M} m of boundary, and lots across a street do not.`,
    );
  }
  const sorted = [...members].sort((a, b) => (a.read.lot.id < b.read.lot.id ? -1 : 1));
  return {
    ok: true,
    group: {
      // As POST /sites/assemble names the same lots of the same pack version (read-lots.ts keys them).
      groupId: groupIdOf(
        sorted.map((m) => m.read.lot.id),
        "",
      ),
      members: sorted,
      lotIds: sorted.map((m) => m.hit.lotId ?? ""),
    },
  };
}
