// What a PUBLISHES message asks: the Worker's own message (a private re-upload, or POST /__publish in dev), or an
// R2 event notification of a new public version (production), both read as "compare these two objects".
import { z } from "zod";
import { NotFoundError, UnprocessableError } from "../errors.ts";
import { PUBLISH_MESSAGE, type PublishMessage, publishMessage } from "../packs/publish-message.ts";

/** A publish, from its first chunk of alerts (`after` null) or from the chunk after alert `after`. */
export type PublishRequest = {
  packId: string;
  orgId: string | null;
  fromKey: string;
  toKey: string;
  after: string | null;
};

const OwnMessage = z.object({
  type: z.literal(PUBLISH_MESSAGE),
  pack_id: z.string().min(1),
  org_id: z.string().min(1).nullable(),
  from_key: z.string().min(1),
  to_key: z.string().min(1),
  // Set on the messages that carry a publish on past its first chunk of alerts (src/alerts/consumer.ts).
  after_alert_id: z.uuid().optional(),
});

/** The message that carries a publish on to its alerts after `after` (keyset paging by alert id). */
export function nextChunk(r: PublishRequest, after: string): PublishMessage & { after_alert_id: string } {
  return { ...publishMessage(r.packId, r.orgId, r.fromKey, r.toKey), after_alert_id: after };
}

// https://developers.cloudflare.com/r2/buckets/event-notifications/: the fields read here.
const R2Event = z.object({
  action: z.string(),
  object: z.object({ key: z.string() }),
});
const CREATED = new Set(["PutObject", "CopyObject", "CompleteMultipartUpload"]);

/** The id a versioned public key names ("public/greater-sydney@3f2a.pack" -> "greater-sydney"), or null. */
export function publicVersionId(key: string, prefix: string): string | null {
  if (!key.startsWith(prefix) || !key.endsWith(".pack")) return null;
  const name = key.slice(prefix.length, -".pack".length);
  const at = name.lastIndexOf("@");
  return at > 0 && !name.includes("/") ? name.slice(0, at) : null;
}

/** The newest other version of public pack `id` in the bucket (by upload time), or null for its first. */
async function previousVersion(bucket: R2Bucket, prefix: string, id: string, key: string): Promise<string | null> {
  let best: R2Object | null = (await bucket.head(`${prefix}${id}.pack`)) ?? null;
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix: `${prefix}${id}@`, cursor });
    for (const o of page.objects) {
      if (o.key === key || !o.key.endsWith(".pack")) continue;
      if (!best || o.uploaded > best.uploaded) best = o;
    }
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return best?.key ?? null;
}

export type Parsed = { request: PublishRequest } | { ignore: string } | { invalid: string };

/** Reads a message body; an event this consumer has nothing to do with is ignored, a malformed body is invalid. */
export async function readPublish(body: unknown, bucket: R2Bucket, prefix: string): Promise<Parsed> {
  const own = OwnMessage.safeParse(body);
  if (own.success) {
    const m = own.data;
    return {
      request: {
        packId: m.pack_id,
        orgId: m.org_id,
        fromKey: m.from_key,
        toKey: m.to_key,
        after: m.after_alert_id ?? null,
      },
    };
  }
  const event = R2Event.safeParse(body);
  if (!event.success) return { invalid: "neither a pack publish nor an R2 event notification" };
  const key = event.data.object.key;
  if (!CREATED.has(event.data.action)) return { ignore: `R2 ${event.data.action} of ${key}` };
  const id = publicVersionId(key, prefix);
  if (!id) return { ignore: `R2 object ${key} is not a versioned public pack` };
  const fromKey = await previousVersion(bucket, prefix, id, key);
  if (!fromKey) return { ignore: `${key} is the first version of ${id}: nothing to compare` };
  return { request: { packId: id, orgId: null, fromKey, toKey: key, after: null } };
}

/**
 * Dev only (POST /__publish): queues the publish of a public pack whose two versions are in R2 already, as an R2
 * event notification does in production; wrangler cannot send to a local queue from outside the Worker.
 */
export async function queuePublicPublish(
  queue: Queue,
  bucket: R2Bucket,
  prefix: string,
  input: { pack_id: string; from_key: string; to_key: string },
): Promise<PublishMessage> {
  for (const key of [input.from_key, input.to_key]) {
    if (!key.startsWith(prefix) || !key.endsWith(".pack")) {
      throw new UnprocessableError(`A public pack's key starts with ${prefix} and ends with .pack: ${key}`, [
        "body",
        key === input.from_key ? "from_key" : "to_key",
      ]);
    }
    if (!(await bucket.head(key))) throw new NotFoundError(`Pack object not found: ${key}`);
  }
  const message = publishMessage(input.pack_id, null, input.from_key, input.to_key);
  await queue.send(message);
  return message;
}
