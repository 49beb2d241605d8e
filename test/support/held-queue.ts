// A queue binding that keeps what it is sent, so nothing runs behind a test's back (the test runs the consumer).

/** A Queue whose messages are pushed onto `sent`, bodies only, in order. */
export function heldQueue(sent: unknown[]): Queue {
  const metrics = { backlogCount: 0, backlogBytes: 0 };
  return {
    metrics: async () => metrics,
    send: async (body) => {
      sent.push(body);
      return { metadata: { metrics } };
    },
    sendBatch: async (batch) => {
      for (const m of batch) sent.push(m.body);
      return { metadata: { metrics } };
    },
  };
}
