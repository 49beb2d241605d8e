// The unsubscribe token: it names the alert it was signed for and a fresh id, and verifying refuses a token
// signed with another key, one whose alert was swapped, one past its expiry, one for another purpose and alg none.
import { SignJWT } from "jose";
import { describe, expect, it } from "vitest";
import {
  UNSUBSCRIBE_TOKEN_TTL_S,
  signUnsubscribeToken,
  verifyUnsubscribeToken,
} from "../../../src/alerts/unsubscribe.ts";
import { InvalidRequestError, NotConfiguredError } from "../../../src/errors.ts";

const SECRET = "unit-test-unsubscribe-secret";
const ALERT = "0b6f8f5e-6b1f-4a5e-9a51-1f4f3b6c2d10";
const OTHER = "7d1c2a3b-4e5f-4a6b-8c7d-9e0f1a2b3c4d";

const b64url = (o: unknown) => btoa(JSON.stringify(o)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_");
const payloadOf = (t: string) =>
  JSON.parse(atob((t.split(".")[1] ?? "").replace(/-/g, "+").replace(/_/g, "/"))) as Record<string, unknown>;

async function refused(p: Promise<unknown>): Promise<string> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InvalidRequestError);
  return (err as InvalidRequestError).detail;
}

describe("unsubscribe tokens", () => {
  it("verify to the alert they were signed for, each with its own id", async () => {
    const a = await signUnsubscribeToken(SECRET, ALERT);
    const b = await signUnsubscribeToken(SECRET, ALERT);
    const va = await verifyUnsubscribeToken(SECRET, a);
    const vb = await verifyUnsubscribeToken(SECRET, b);
    expect(va.alertId).toBe(ALERT);
    expect(vb.alertId).toBe(ALERT);
    expect(va.jti).not.toBe(vb.jti);
    expect(va.jti).toBe(payloadOf(a).jti);
  });

  it("refuse a token signed with another key (forged)", async () => {
    const forged = await signUnsubscribeToken("someone-elses-secret", ALERT);
    expect(await refused(verifyUnsubscribeToken(SECRET, forged))).toMatch(/not valid.*altered/);
  });

  it("refuse a genuine token whose alert was swapped for another (the signature no longer matches)", async () => {
    const genuine = await signUnsubscribeToken(SECRET, ALERT);
    const [head, , sig] = genuine.split(".");
    const swapped = `${head}.${b64url({ ...payloadOf(genuine), sub: OTHER })}.${sig}`;
    expect(await refused(verifyUnsubscribeToken(SECRET, swapped))).toMatch(/not valid/);
    // And the genuine one still names its own alert, not the other.
    expect((await verifyUnsubscribeToken(SECRET, genuine)).alertId).not.toBe(OTHER);
  });

  it("refuse an expired token with a sentence saying so, and accept it the second before", async () => {
    const issued = new Date("2026-01-01T00:00:00Z");
    const token = await signUnsubscribeToken(SECRET, ALERT, { now: issued });
    const justBefore = new Date(issued.getTime() + (UNSUBSCRIBE_TOKEN_TTL_S - 1) * 1000);
    expect((await verifyUnsubscribeToken(SECRET, token, justBefore)).alertId).toBe(ALERT);
    const after = new Date(issued.getTime() + (UNSUBSCRIBE_TOKEN_TTL_S + 1) * 1000);
    expect(await refused(verifyUnsubscribeToken(SECRET, token, after))).toMatch(/expired/);
  });

  it("refuse a token of the same key made for another purpose (no unsubscribe audience), without jti, or not naming an alert id", async () => {
    const key = new TextEncoder().encode(SECRET);
    const now = Math.floor(Date.now() / 1000);
    const base = () =>
      new SignJWT({})
        .setProtectedHeader({ alg: "HS256" })
        .setIssuedAt(now)
        .setExpirationTime(now + 60);
    const otherPurpose = await base().setSubject(ALERT).setJti("x").setAudience("authenticated").sign(key);
    const noJti = await base().setSubject(ALERT).setAudience("alert-unsubscribe").sign(key);
    const notUuid = await base().setSubject("all").setJti("x").setAudience("alert-unsubscribe").sign(key);
    for (const t of [otherPurpose, noJti, notUuid])
      expect(await refused(verifyUnsubscribeToken(SECRET, t))).toMatch(/not valid/);
  });

  it("refuse alg none and text that is no token at all", async () => {
    const genuine = await signUnsubscribeToken(SECRET, ALERT);
    const none = `${b64url({ alg: "none", typ: "JWT" })}.${genuine.split(".")[1]}.`;
    for (const t of [none, "not-a-token", "a.b.c"])
      expect(await refused(verifyUnsubscribeToken(SECRET, t))).toMatch(/not valid/);
  });

  it("without UNSUBSCRIBE_SECRET neither signs nor verifies (not configured, not a forged token)", async () => {
    await expect(signUnsubscribeToken(undefined, ALERT)).rejects.toBeInstanceOf(NotConfiguredError);
    await expect(verifyUnsubscribeToken(undefined, "x")).rejects.toBeInstanceOf(NotConfiguredError);
  });
});
