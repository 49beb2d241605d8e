// E-mail marketing contacts over Loops' wire protocol: POST {url}/api/v1/contacts/create with a bearer key.
// 200 = created, 409 = already on the list (also success). Network errors, 429 and 5xx are retried with backoff.

export interface Contact {
  email: string;
  firstName?: string | null;
  userId: string;
  /** Loops' segmentation field; we put the organisation type there. */
  userGroup: string;
  source: string;
}

export type ContactOutcome = "created" | "exists";

export interface MarketingClient {
  createContact(contact: Contact): Promise<ContactOutcome>;
}

export interface MarketingOptions {
  url: string;
  apiKey: string | undefined;
  /** Attempts in all, including the first. Default 3. */
  attempts?: number;
  /** First backoff delay; doubles each retry. Default 200 ms. */
  baseDelayMs?: number;
  /** Budget for all attempts together, so a slow service never holds up sign-up. Default 3 s. */
  totalTimeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

export class MarketingError extends Error {
  readonly status: number | undefined;
  constructor(message: string, status?: number, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "MarketingError";
    this.status = status;
  }
}

const retryable = (status: number): boolean => status === 429 || status >= 500;

export function marketingClient(opts: MarketingOptions): MarketingClient {
  const attempts = opts.attempts ?? 3;
  const baseDelay = opts.baseDelayMs ?? 200;
  const budget = opts.totalTimeoutMs ?? 3_000;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));

  async function attempt(contact: Contact, signal: AbortSignal): Promise<ContactOutcome> {
    const body: Record<string, unknown> = {
      email: contact.email,
      userGroup: contact.userGroup,
      source: contact.source,
      userId: contact.userId,
    };
    if (contact.firstName) body.firstName = contact.firstName;
    const res = await fetch(`${opts.url}/api/v1/contacts/create`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        ...(opts.apiKey ? { Authorization: `Bearer ${opts.apiKey}` } : {}),
      },
      body: JSON.stringify(body),
      signal,
    });
    await res.body?.cancel();
    if (res.ok) return "created";
    if (res.status === 409) return "exists";
    throw new MarketingError(`marketing service answered HTTP ${res.status}`, res.status);
  }

  return {
    async createContact(contact) {
      const deadline = Date.now() + budget;
      let last: unknown;
      for (let i = 0; i < attempts; i++) {
        const left = deadline - Date.now();
        if (left <= 0) break;
        try {
          // Awaited inside try, so a rejected attempt lands in catch and is retried.
          return await attempt(contact, AbortSignal.timeout(left));
        } catch (err) {
          last = err;
          if (err instanceof MarketingError && err.status !== undefined && !retryable(err.status)) throw err;
        }
        const delay = Math.min(baseDelay * 2 ** i, deadline - Date.now());
        if (i < attempts - 1 && delay > 0) await sleep(delay);
      }
      throw last instanceof MarketingError
        ? last
        : new MarketingError("marketing service unreachable", undefined, { cause: last });
    },
  };
}
