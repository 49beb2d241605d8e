// Versions of an organisation's pack kept beside the live object (orgs/{org}/{id}.pack) under versions/, outside
// the prefix the organisation's packs are listed from: the alerts consumer reads both sides of a re-upload there,
// whatever has been uploaded since. An R2 lifecycle rule on versions/ expires them (README: Publishing a pack).
import { privateKey } from "./store.ts";

export const VERSIONS_PREFIX = "versions/";

export const versionKey = (orgId: string, packId: string, version: string) =>
  `${VERSIONS_PREFIX}${privateKey(orgId, packId)}`.replace(/\.pack$/, `@${version}.pack`);

/** The prefix every kept version of one pack shares. */
export const versionsOfPack = (orgId: string, packId: string) =>
  `${VERSIONS_PREFIX}${privateKey(orgId, packId)}`.replace(/\.pack$/, "@");

/** A version after `previous`: versions are sortable timestamps to the second, so two uploads in one second still differ. */
export function nextVersion(candidate: string, previous: string | undefined): string {
  if (previous === undefined || candidate > previous) return candidate;
  const m = /^(.*?)(?:\.(\d+))?$/.exec(previous);
  const base = m?.[1] ?? previous;
  const n = Number(m?.[2] ?? 0) + 1;
  // Zero-padded, so the tenth upload in a second still sorts after the ninth.
  return `${base}.${String(n).padStart(3, "0")}`;
}
