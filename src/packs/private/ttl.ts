// How long an organisation's private packs are served before R2 is read again (Durable Object and isolates alike).
export const PRIVATE_PACK_TTL_MS = 5 * 60_000;
