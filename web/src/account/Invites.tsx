// Invitations: send one by e-mail with a role, list the pending ones, revoke one.
import { type FormEvent, useCallback, useEffect, useState } from "react";
import type { Shell } from "../shell.ts";
import type { Invite, InviteCreate } from "../api.ts";
import { Outcome, type Question, useOutcome } from "./Confirm.tsx";

const expires = (iso: string) => new Date(iso).toLocaleDateString(undefined, { day: "numeric", month: "short" });

export function Invites({ shell, ask }: { shell: Shell; ask: (q: Question) => Promise<boolean> }) {
  const { api } = shell.auth;
  const [invites, setInvites] = useState<Invite[] | null>(null);
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<InviteCreate["role"]>("member");
  const [busy, setBusy] = useState(false);
  const { said, ok, fail } = useOutcome(shell.report);

  const load = useCallback(() => api.get<Invite[]>("/billing/invites").then(setInvites, fail), [api, fail]);
  useEffect(() => {
    void load();
  }, [load]);

  async function send(e: FormEvent) {
    e.preventDefault();
    const to = email.trim();
    const yes = await ask({
      title: `Invite ${to}?`,
      body: `An e-mail goes to ${to}. When they create an account with it within 7 days they join as ${role === "admin" ? "an admin" : "a member"}.`,
      confirm: "Send invite",
    });
    if (!yes) return;
    setBusy(true);
    try {
      await api.post("/billing/invite", { email: to, role } satisfies InviteCreate);
      ok(`Invitation sent to ${to}.`);
      setEmail("");
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
    await load();
  }

  async function revoke(inv: Invite) {
    const yes = await ask({
      title: `Revoke the invitation to ${inv.email}?`,
      body: "The link in their e-mail stops working. You can invite them again later.",
      confirm: "Revoke",
    });
    if (!yes) return;
    try {
      await api.delete(`/billing/invite/${inv.id}`);
      ok(`The invitation to ${inv.email} was revoked.`);
    } catch (err) {
      fail(err, { 404: `The invitation to ${inv.email} was already accepted, revoked or has expired.` });
    }
    await load();
  }

  return (
    <div className="invites">
      <h3>Invitations</h3>
      <Outcome said={said} />
      <form className="invite-form" onSubmit={(e) => void send(e)}>
        <label>
          Invite by e-mail
          <input type="email" required value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="off" />
        </label>
        <label>
          Invite as
          <select value={role} onChange={(e) => setRole(e.target.value as InviteCreate["role"])}>
            <option value="member">Member</option>
            <option value="admin">Admin</option>
          </select>
        </label>
        <button type="submit" className="primary" disabled={busy}>
          Send invite
        </button>
      </form>
      {invites === null ? (
        <p role="status">Loading invitations…</p>
      ) : invites.length === 0 ? (
        <p className="muted">No pending invitations.</p>
      ) : (
        <ul className="pending" aria-label="Pending invitations">
          {invites.map((inv) => (
            <li key={inv.id}>
              <span>
                {inv.email} <span className="role">{inv.role}</span>{" "}
                <span className="muted">expires {expires(inv.expires_at)}</span>
              </span>
              <button type="button" onClick={() => void revoke(inv)}>
                Revoke<span className="visually-hidden"> invite to {inv.email}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
