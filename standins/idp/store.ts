// State of the dev identity provider: users, sessions, refresh tokens and the ES256 key pair,
// kept in memory and optionally mirrored to one JSON file so a restart keeps everyone signed in.
import { randomBytes, randomUUID, scrypt, timingSafeEqual } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { calculateJwkThumbprint, exportJWK, generateKeyPair } from "jose";
import type { JWK } from "jose";

export interface StoredUser {
  id: string;
  email: string;
  /** `scrypt$N$r$p$salt$hash` (base64url), or null for invited users who have not set one yet. */
  passwordHash: string | null;
  emailConfirmedAt: string | null;
  invitedAt: string | null;
  lastSignInAt: string | null;
  userMetadata: Record<string, unknown>;
  appMetadata: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

export interface AmrEntry {
  method: string;
  timestamp: number;
}

export interface StoredSession {
  id: string;
  userId: string;
  createdAt: string;
  amr: AmrEntry[];
}

export interface StoredRefreshToken {
  token: string;
  sessionId: string;
  userId: string;
  revoked: boolean;
  createdAt: string;
}

export interface StoredKey {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
}

interface IdpData {
  version: 1;
  key: StoredKey | null;
  users: StoredUser[];
  sessions: StoredSession[];
  refreshTokens: StoredRefreshToken[];
}

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 } as const;
// Revoked tokens are kept a while only to recognise reuse; after that they are dead weight in the file.
const REVOKED_TOKEN_KEEP_MS = 24 * 3600 * 1000;

function scryptAsync(password: string, salt: Buffer, N: number, r: number, p: number, keylen: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, keylen, { N, r, p, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scryptAsync(password, salt, SCRYPT.N, SCRYPT.r, SCRYPT.p, SCRYPT.keylen);
  return ["scrypt", SCRYPT.N, SCRYPT.r, SCRYPT.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  // Unknown users still pay for one hash so response time does not reveal which e-mails exist.
  const parts = (stored ?? `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${"A".repeat(22)}$${"A".repeat(43)}`).split("$");
  const [scheme, n, r, p, salt, hash] = parts;
  if (parts.length !== 6 || scheme !== "scrypt" || !n || !r || !p || salt === undefined || hash === undefined)
    return false;
  const expected = Buffer.from(hash, "base64url");
  const actual = await scryptAsync(
    password,
    Buffer.from(salt, "base64url"),
    Number(n),
    Number(r),
    Number(p),
    expected.length,
  );
  return stored !== null && actual.length === expected.length && timingSafeEqual(actual, expected);
}

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function newRefreshToken(): string {
  return randomBytes(24).toString("base64url");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isIdpData(value: unknown): value is IdpData {
  return (
    isRecord(value) &&
    value.version === 1 &&
    Array.isArray(value.users) &&
    Array.isArray(value.sessions) &&
    Array.isArray(value.refreshTokens) &&
    (value.key === null || isRecord(value.key))
  );
}

async function generateSigningKey(): Promise<StoredKey> {
  const { privateKey, publicKey } = await generateKeyPair("ES256", { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  return {
    kid,
    privateJwk: { ...(await exportJWK(privateKey)), kid, alg: "ES256" },
    publicJwk: { ...publicJwk, kid, alg: "ES256", use: "sig" },
  };
}

export class IdpStore {
  readonly users = new Map<string, StoredUser>();
  readonly sessions = new Map<string, StoredSession>();
  readonly refreshTokens = new Map<string, StoredRefreshToken>();
  key!: StoredKey;
  readonly #dataFile: string | undefined;
  #writeChain: Promise<void> = Promise.resolve();

  private constructor(dataFile: string | undefined) {
    this.#dataFile = dataFile;
  }

  static async open(dataFile: string | undefined): Promise<IdpStore> {
    const store = new IdpStore(dataFile);
    let data: IdpData | undefined;
    if (dataFile) {
      let text: string | undefined;
      try {
        text = await readFile(dataFile, "utf8");
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      }
      if (text !== undefined) {
        const parsed: unknown = JSON.parse(text);
        if (!isIdpData(parsed)) throw new Error(`${dataFile} is not a dev identity provider data file (version 1)`);
        data = parsed;
      }
    }
    for (const u of data?.users ?? []) store.users.set(u.id, u);
    for (const s of data?.sessions ?? []) store.sessions.set(s.id, s);
    for (const t of data?.refreshTokens ?? []) store.refreshTokens.set(t.token, t);
    store.key = data?.key ?? (await generateSigningKey());
    if (!data?.key) await store.save();
    return store;
  }

  findUserByEmail(email: string): StoredUser | undefined {
    const wanted = normaliseEmail(email);
    for (const u of this.users.values()) if (u.email === wanted) return u;
    return undefined;
  }

  createUser(fields: {
    id?: string;
    email: string;
    passwordHash: string | null;
    confirmed: boolean;
    invited?: boolean;
    userMetadata?: Record<string, unknown>;
  }): StoredUser {
    const now = new Date().toISOString();
    const user: StoredUser = {
      id: fields.id ?? randomUUID(),
      email: normaliseEmail(fields.email),
      passwordHash: fields.passwordHash,
      emailConfirmedAt: fields.confirmed ? now : null,
      invitedAt: fields.invited ? now : null,
      lastSignInAt: null,
      userMetadata: fields.userMetadata ?? {},
      appMetadata: { provider: "email", providers: ["email"] },
      createdAt: now,
      updatedAt: now,
    };
    this.users.set(user.id, user);
    return user;
  }

  deleteUser(id: string): void {
    this.users.delete(id);
    for (const s of [...this.sessions.values()]) if (s.userId === id) this.deleteSession(s.id);
  }

  createSession(userId: string, method: string): StoredSession {
    const session: StoredSession = {
      id: randomUUID(),
      userId,
      createdAt: new Date().toISOString(),
      amr: [{ method, timestamp: Math.floor(Date.now() / 1000) }],
    };
    this.sessions.set(session.id, session);
    return session;
  }

  deleteSession(id: string): void {
    this.sessions.delete(id);
    for (const t of [...this.refreshTokens.values()]) if (t.sessionId === id) this.refreshTokens.delete(t.token);
  }

  addRefreshToken(session: StoredSession): StoredRefreshToken {
    const token: StoredRefreshToken = {
      token: newRefreshToken(),
      sessionId: session.id,
      userId: session.userId,
      revoked: false,
      createdAt: new Date().toISOString(),
    };
    this.refreshTokens.set(token.token, token);
    return token;
  }

  /** Writes the state to the data file (atomically, one write at a time); no-op in memory mode. */
  save(): Promise<void> {
    const file = this.#dataFile;
    if (!file) return Promise.resolve();
    const cutoff = Date.now() - REVOKED_TOKEN_KEEP_MS;
    for (const t of [...this.refreshTokens.values()])
      if (t.revoked && Date.parse(t.createdAt) < cutoff) this.refreshTokens.delete(t.token);
    const data: IdpData = {
      version: 1,
      key: this.key,
      users: [...this.users.values()],
      sessions: [...this.sessions.values()],
      refreshTokens: [...this.refreshTokens.values()],
    };
    const text = JSON.stringify(data, null, 2);
    const next = this.#writeChain.then(async () => {
      await mkdir(dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.tmp`;
      await writeFile(tmp, text, { mode: 0o600 });
      await rename(tmp, file);
    });
    // A failed write must not wedge later ones; the caller of this save still sees the error.
    this.#writeChain = next.catch(() => undefined);
    return next;
  }

  /** Resolves once every write started so far has finished. */
  flush(): Promise<void> {
    return this.#writeChain;
  }
}
