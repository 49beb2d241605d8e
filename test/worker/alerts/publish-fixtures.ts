// Two versions of the demo pack in the test bucket, orgs watching them, and the queue handler run on a message
// batch as the Queues runtime would: what the publish, consumer and redelivery tests share.
import { createExecutionContext, createMessageBatch, getQueueResult } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq, inArray } from "drizzle-orm";
import { type DemoV2Plan, buildDemoV2, repackDemo } from "../../../scripts/pack/demo-v2.ts";
import { alertEmails, notifications } from "../../../src/db/schema.ts";
import worker from "../../../src/index.ts";
import { readPackBytes } from "../../../src/packs/pack-bytes.ts";
import { publishMessage } from "../../../src/packs/publish-message.ts";
import { resetPublicPacks } from "../../../src/packs/registry.ts";
import { demoPackBytes, putDemoPacks, putPack } from "../../support/packs.ts";
import { call, type TestOrg, withDb } from "../helpers/billing.ts";

export type Versions = { plan: DemoV2Plan; v1: string; v2: string; same: string };

/** The demo pack (2.0.0), its second version (2.1.0) and an unchanged repack (2.0.1), under keys of this run. */
export async function putVersions(): Promise<Versions> {
  await putDemoPacks();
  resetPublicPacks();
  const demo = readPackBytes(demoPackBytes("sydney-demo.pack"), "sydney-demo.pack");
  const { bytes, plan } = await buildDemoV2(demo);
  const run = `alerts-test/${crypto.randomUUID()}`;
  const keys = {
    v1: `${run}/sydney-demo@2.0.0.pack`,
    v2: `${run}/sydney-demo@2.1.0.pack`,
    same: `${run}/sydney-demo@2.0.1.pack`,
  };
  await putPack(keys.v1, demoPackBytes("sydney-demo.pack"));
  await putPack(keys.v2, bytes);
  await putPack(keys.same, await repackDemo(demo, "2.0.1"));
  return { plan, ...keys };
}

export const demoPublish = (from: string, to: string) => publishMessage("sydney-demo", null, from, to);

/** A message the handler put on the PUBLISHES queue. */
export type Queued = { body: unknown; delaySeconds: number | undefined };

/** A PUBLISHES binding that keeps what is sent to it, so a test runs each message itself. */
export function recordingQueue(sent: Queued[]): Queue {
  const metadata = { metrics: { backlogCount: 0, backlogBytes: 0 } };
  return {
    async metrics() {
      return metadata.metrics;
    },
    async send(body: unknown, options?: QueueSendOptions) {
      sent.push({ body, delaySeconds: options?.delaySeconds });
      return { metadata };
    },
    async sendBatch(messages: Iterable<MessageSendRequest>) {
      for (const m of messages) sent.push({ body: m.body, delaySeconds: m.delaySeconds });
      return { metadata };
    },
  };
}

/** A message that carries a publish on to its next chunk of alerts. */
export const isNextChunk = (q: Queued) => typeof q.body === "object" && q.body !== null && "after_alert_id" in q.body;

/** Runs the Worker's queue handler on one message, as delivery `attempts`, and answers what it acked or retried. */
export async function deliverOnce(
  body: unknown,
  opts: { id?: string; attempts?: number; queue?: string; bindings?: object; queued?: Queued[] } = {},
) {
  const batch = createMessageBatch(opts.queue ?? "geo-assess-publishes", [
    { id: opts.id ?? crypto.randomUUID(), timestamp: new Date(), attempts: opts.attempts ?? 1, body },
  ]);
  const ctx = createExecutionContext();
  const publishes = recordingQueue(opts.queued ?? []);
  await worker.queue(batch, { ...env, PUBLISHES: publishes, ...opts.bindings } as Env);
  return getQueueResult(batch, ctx);
}

/**
 * Runs a publish as the queue would: its message, then each next chunk it queues, each a handler invocation of its
 * own (under the same message id, so acks and retries read as the publish's). Stops at the first retried chunk.
 * Other messages it queues (delayed digests) are answered in `queued`, not run.
 */
export async function deliver(
  body: unknown,
  opts: { id?: string; attempts?: number; queue?: string; bindings?: object } = {},
) {
  const id = opts.id ?? crypto.randomUUID();
  const queued: Queued[] = [];
  const first = await deliverOnce(body, { ...opts, id, queued });
  const acks = new Set(first.explicitAcks);
  const retries = [...first.retryMessages];
  let invocations = 1;
  for (
    let next = queued.findIndex(isNextChunk);
    next >= 0 && retries.length === 0;
    next = queued.findIndex(isNextChunk)
  ) {
    const [chunk] = queued.splice(next, 1);
    const result = await deliverOnce(chunk?.body, { ...opts, id, attempts: 1, queued });
    invocations += 1;
    for (const a of result.explicitAcks) acks.add(a);
    retries.push(...result.retryMessages);
  }
  return { ...first, explicitAcks: [...acks], retryMessages: retries, invocations, queued };
}

export async function saveLot(org: TestOrg, lotId: string): Promise<string> {
  const res = await call("/sites/saved", { method: "POST", token: org.users.member.token, body: { lot_id: lotId } });
  if (res.status !== 201 && res.status !== 200) throw new Error(`save ${lotId}: ${res.status} ${await res.text()}`);
  return (await res.json<{ id: string }>()).id;
}

export async function createAlert(org: TestOrg, body: Record<string, unknown>): Promise<string> {
  const res = await call("/alerts", { method: "POST", token: org.users.owner.token, body });
  if (res.status !== 201) throw new Error(`alert: ${res.status} ${await res.text()}`);
  return (await res.json<{ id: string }>()).id;
}

export type Recorded = { alertId: string; changeKey: string; change: Record<string, unknown> };

export const notificationsOf = (alertIds: string[]) =>
  withDb(async (db) =>
    (await db.select().from(notifications).where(inArray(notifications.alertId, alertIds))).map(
      (n): Recorded => ({ alertId: n.alertId, changeKey: n.changeKey, change: n.change as Record<string, unknown> }),
    ),
  );

export const emailsOf = (alertId: string) =>
  withDb((db) => db.select().from(alertEmails).where(eq(alertEmails.alertId, alertId)));
