// Team: members and their roles; owners and admins change roles and remove members as the rules allow.
import { useCallback, useEffect, useState } from "react";
import type { Shell } from "../shell.ts";
import type { Member, MemberRoleUpdate, Role } from "../api.ts";
import { Outcome, useConfirm, useOutcome } from "./Confirm.tsx";
import { Invites } from "./Invites.tsx";

const ROLE_WORD: Record<Role, string> = { owner: "Owner", admin: "Admin", member: "Member" };
const who = (m: Member) => m.display_name ?? m.email ?? "A member without an e-mail";

/** Why a row has no controls, or null when the caller may change it. */
function lockOf(m: Member, userId: string): string | null {
  if (m.role === "owner") return "The owner's role cannot be changed and the owner cannot be removed.";
  if (m.user_id === userId) return "This is you: another owner or admin manages your role and membership.";
  return null;
}

const LockIcon = () => (
  <svg className="lock-icon" viewBox="0 0 16 16" width="14" height="14" aria-hidden="true">
    <rect x="3" y="7" width="10" height="8" rx="1.5" fill="currentColor" />
    <path d="M5 7V5a3 3 0 0 1 6 0v2" fill="none" stroke="currentColor" strokeWidth="1.6" />
  </svg>
);

export function Team({ shell }: { shell: Shell }) {
  const { api } = shell.auth;
  const [members, setMembers] = useState<Member[] | null>(null);
  const { said, ok, fail } = useOutcome(shell.report);
  const { ask, dialog } = useConfirm();

  const load = useCallback(() => api.get<Member[]>("/billing/org/members").then(setMembers, fail), [api, fail]);
  useEffect(() => {
    void load();
  }, [load]);

  async function changeRole(m: Member, role: MemberRoleUpdate["role"]) {
    const yes = await ask({
      title: `Make ${who(m)} ${role === "admin" ? "an admin" : "a member"}?`,
      body:
        role === "admin"
          ? "Admins manage the team, invitations and the plan."
          : "Members use the workspace and see credits and plans, but not the team or billing controls.",
      confirm: "Change role",
    });
    if (!yes) return;
    try {
      await api.put(`/billing/org/members/${m.id}/role`, { role } satisfies MemberRoleUpdate);
      ok(`${who(m)} is now ${role === "admin" ? "an admin" : "a member"}.`);
    } catch (err) {
      fail(err, { 404: `${who(m)} is no longer in the organisation.` });
    }
    await load();
  }

  async function remove(m: Member) {
    const yes = await ask({
      title: `Remove ${who(m)}?`,
      body: `${who(m)} loses access to this organisation's credits, packs and work. You can invite them again later.`,
      confirm: "Remove",
    });
    if (!yes) return;
    try {
      await api.delete(`/billing/org/members/${m.id}`);
      ok(`${who(m)} was removed from the organisation.`);
    } catch (err) {
      fail(err, { 404: `${who(m)} is no longer in the organisation.` });
    }
    await load();
  }

  return (
    <section aria-labelledby="team-h">
      <h2 id="team-h">Team members</h2>
      <Outcome said={said} />
      {members === null ? (
        <p role="status">Loading members…</p>
      ) : (
        <div className="table-wrap">
          <table className="team-table">
            <caption className="visually-hidden">Members and their roles</caption>
            <thead>
              <tr>
                <th scope="col">Member</th>
                <th scope="col">Role</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {members.map((m) => {
                const lock = lockOf(m, shell.userId);
                return (
                  <tr key={m.id}>
                    <th scope="row">
                      {who(m)}
                      {m.display_name && m.email && <span className="muted"> {m.email}</span>}
                      {m.user_id === shell.userId && <span className="muted"> (you)</span>}
                    </th>
                    <td>
                      {lock ? (
                        <span className="role">{ROLE_WORD[m.role]}</span>
                      ) : (
                        <select
                          aria-label={`Role of ${who(m)}`}
                          value={m.role}
                          onChange={(e) => void changeRole(m, e.target.value as MemberRoleUpdate["role"])}
                        >
                          <option value="admin">Admin</option>
                          <option value="member">Member</option>
                        </select>
                      )}
                    </td>
                    <td>
                      {lock ? (
                        <span className="lock">
                          <LockIcon />
                          {lock}
                        </span>
                      ) : (
                        <button type="button" className="danger" onClick={() => void remove(m)}>
                          Remove<span className="visually-hidden"> {who(m)}</span>
                        </button>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <Invites shell={shell} ask={ask} />
      {dialog}
    </section>
  );
}
