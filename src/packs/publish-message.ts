// The message a new version of a pack puts on the PUBLISHES queue (docs/design.md section 12): which pack, whose
// (null for a public pack), and the two immutable objects the alerts consumer compares.
export const PUBLISH_MESSAGE = "pack_publish";

export type PublishMessage = {
  type: typeof PUBLISH_MESSAGE;
  pack_id: string;
  /** The organisation of a private pack; null for a public one (every organisation's alerts may watch it). */
  org_id: string | null;
  /** The old version's object: kept readable until the consumer has compared the two. */
  from_key: string;
  to_key: string;
};

export function publishMessage(packId: string, orgId: string | null, fromKey: string, toKey: string): PublishMessage {
  return { type: PUBLISH_MESSAGE, pack_id: packId, org_id: orgId, from_key: fromKey, to_key: toKey };
}
