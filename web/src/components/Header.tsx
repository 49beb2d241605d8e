// Organisation (a personal one said so), role and credit balance, always in view; the views and sign-out. On a phone
// (styles.css) one row: the mark, the views, the balance, notifications, and a menu with the organisation and sign-out.
import type { Shell, View } from "../shell.ts";
import { AccountMenu } from "./AccountMenu.tsx";
import { Notifications } from "../alerts/Notifications.tsx";

export function Header({ shell, view, go, email }: { shell: Shell; view: View; go: (v: View) => void; email: string }) {
  const { membership, balance } = shell;
  return (
    <header className="topbar">
      <span className="brand">
        <span className="brand-mark" aria-hidden="true">
          ▲
        </span>
        <span className="brand-name"> Site feasibility</span>
      </span>
      <nav aria-label="Views">
        <button type="button" aria-current={view === "map" ? "page" : undefined} onClick={() => go("map")}>
          Map
        </button>
        <button type="button" aria-current={view === "data" ? "page" : undefined} onClick={() => go("data")}>
          Data
        </button>
        <button type="button" aria-current={view === "account" ? "page" : undefined} onClick={() => go("account")}>
          Account
        </button>
      </nav>
      <section className="who" aria-label="Organisation">
        {membership ? (
          <>
            <span className="org">{membership.name}</span>
            {membership.org_type === "personal" && membership.role === "owner" && (
              <span className="kind">personal</span>
            )}
            <span className="role">{membership.role}</span>
          </>
        ) : (
          <span className="org muted" role="status">
            Setting up your organisation…
          </span>
        )}
        <output className="balance" aria-label="Credit balance">
          {balance === null ? (
            "…"
          ) : (
            <>
              {balance.toFixed(2)}
              <span className="unit"> credits</span>
            </>
          )}
        </output>
        {membership && (
          <Notifications api={shell.auth.api} onProblem={shell.report} showMap={() => view !== "map" && go("map")} />
        )}
        <button type="button" className="quiet" title={email} onClick={() => void shell.auth.supabase.auth.signOut()}>
          Sign out
        </button>
        {membership && (
          <AccountMenu
            membership={membership}
            email={email}
            onSignOut={() => void shell.auth.supabase.auth.signOut()}
          />
        )}
      </section>
    </header>
  );
}
