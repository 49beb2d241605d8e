// One-click unsubscribe (RFC 8058) from an alert's e-mails: a signed token names the alert and carries an id
// that is spent once, in the same statement that stops the e-mails. In-app notifications go on.
import { eq, sql } from "drizzle-orm";
import { SignJWT, errors as joseErrors, jwtVerify } from "jose";
import type { Db } from "../db/client.ts";
import { alerts, savedSites, usedUnsubscribeTokens } from "../db/schema.ts";
import { InvalidRequestError, NotConfiguredError, NotFoundError } from "../errors.ts";
import { isUuid } from "../lib/uuid.ts";
import { alertPlace, alertTypeLabel } from "./describe.ts";
import type { AlertType } from "./types.ts";

/** Tokens are for this purpose only, so no other token signed with the same key is taken for one. */
const AUDIENCE = "alert-unsubscribe";
/** Mail clients offer "unsubscribe" on old messages too; a year covers any digest a person still keeps. */
export const UNSUBSCRIBE_TOKEN_TTL_S = 365 * 24 * 3600;

export type UnsubscribeToken = { alertId: string; jti: string };

const FORGED =
  "This unsubscribe link is not valid: it was not issued by this service or has been altered. Use the link in your latest alert e-mail.";
const EXPIRED =
  "This unsubscribe link has expired: use the link in a newer alert e-mail, or delete the alert in the workspace.";
const ALERT_GONE = "Alert not found: it was deleted, so it sends no more e-mails";

function key(secret: string | undefined): Uint8Array {
  if (!secret)
    throw new NotConfiguredError("Unsubscribe links are not configured on this service (UNSUBSCRIBE_SECRET)");
  return new TextEncoder().encode(secret);
}

/** A token for one e-mail: HS256 over {sub: alert id, jti, aud, iat, exp}. */
export async function signUnsubscribeToken(
  secret: string | undefined,
  alertId: string,
  { now = new Date(), ttlSeconds = UNSUBSCRIBE_TOKEN_TTL_S }: { now?: Date; ttlSeconds?: number } = {},
): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(alertId)
    .setJti(crypto.randomUUID())
    .setAudience(AUDIENCE)
    .setIssuedAt(iat)
    .setExpirationTime(iat + ttlSeconds)
    .sign(key(secret));
}

/** The alert and token id a genuine, unexpired token names; anything else is a 400 saying which. */
export async function verifyUnsubscribeToken(
  secret: string | undefined,
  token: string,
  now: Date = new Date(),
): Promise<UnsubscribeToken> {
  const k = key(secret);
  try {
    const { payload } = await jwtVerify(token, k, { algorithms: ["HS256"], audience: AUDIENCE, currentDate: now });
    if (typeof payload.sub !== "string" || !isUuid(payload.sub) || typeof payload.jti !== "string" || !payload.jti)
      throw new InvalidRequestError(FORGED);
    return { alertId: payload.sub.toLowerCase(), jti: payload.jti };
  } catch (err) {
    if (err instanceof InvalidRequestError) throw err;
    if (err instanceof joseErrors.JWTExpired) throw new InvalidRequestError(EXPIRED);
    throw new InvalidRequestError(FORGED);
  }
}

export type SpendOutcome = "unsubscribed" | "already_used";

/**
 * Spends the token and stops the alert's e-mails in one statement: the token id goes into used_unsubscribe_tokens
 * (on conflict nothing) and only a newly spent id sets email_stopped_at, so a reused token changes nothing.
 */
export async function spendUnsubscribeToken(db: Pick<Db, "execute">, t: UnsubscribeToken): Promise<SpendOutcome> {
  const res = await db.execute<{ found: number; stopped: number }>(sql`
    with target as (select id from ${alerts} where id = ${t.alertId}),
    spent as (
      insert into ${usedUnsubscribeTokens} (jti, alert_id)
      select ${t.jti}, id from target
      on conflict (jti) do nothing
      returning alert_id
    ),
    stopped as (
      update ${alerts} set email_stopped_at = coalesce(email_stopped_at, now())
      where id in (select alert_id from spent)
      returning id
    )
    select (select count(*)::int from target) as found, (select count(*)::int from stopped) as stopped`);
  const row = res.rows[0];
  if (!row || Number(row.found) === 0) throw new NotFoundError(ALERT_GONE);
  return Number(row.stopped) > 0 ? "unsubscribed" : "already_used";
}

export interface UnsubscribePreview {
  alertId: string;
  /** The alert in words: `zoning alert on Epping`. */
  name: string;
  used: boolean;
  emailStopped: boolean;
}

/** What the unsubscribe page shows; reads only (mail scanners fetch GET links). */
export async function unsubscribePreview(db: Db, t: UnsubscribeToken): Promise<UnsubscribePreview> {
  const [row] = await db
    .select({
      type: alerts.alertType,
      target: alerts.target,
      stoppedAt: alerts.emailStoppedAt,
      lotId: savedSites.lotId,
    })
    .from(alerts)
    .leftJoin(savedSites, eq(savedSites.id, alerts.savedSiteId))
    .where(eq(alerts.id, t.alertId));
  if (!row) throw new NotFoundError(ALERT_GONE);
  const [used] = await db
    .select({ jti: usedUnsubscribeTokens.jti })
    .from(usedUnsubscribeTokens)
    .where(eq(usedUnsubscribeTokens.jti, t.jti));
  return {
    alertId: t.alertId,
    name: `${alertTypeLabel(row.type as AlertType)} alert on ${alertPlace(row.target, row.lotId)}`,
    used: used !== undefined,
    emailStopped: row.stoppedAt !== null,
  };
}
