// The account view: credits for everyone, the team for owners and admins, the plans (checkout for billing admins).
import { useCallback, useState } from "react";
import { Outcome, type Said } from "./Confirm.tsx";
import type { JoinedShell } from "../shell.ts";
import { AssumptionsSection } from "./Assumptions.tsx";
import { Credits } from "./Credits.tsx";
import { Plan } from "./Plan.tsx";
import { Team } from "./Team.tsx";

const ROLE_PHRASE = { owner: "the owner", admin: "an admin", member: "a member" } as const;
const SECTIONS = [
  { id: "credits-h", label: "Credits" },
  { id: "team-h", label: "Team" },
  { id: "assumptions-h", label: "Assumptions" },
  { id: "plans-h", label: "Plan" },
];
// The map keeps its view in the URL's hash, so sections are reached by scrolling, not by #anchors.
const jump = (id: string) => document.getElementById(id)?.scrollIntoView({ behavior: "smooth", block: "start" });

export default function Account({ shell }: { shell: JoinedShell }) {
  const admin = shell.membership.role !== "member";
  const org = shell.membership;
  // A paid checkout adds credits: the ledger is read again when the subscription appears.
  const [reload, setReload] = useState(0);
  const onPaid = useCallback(() => setReload((n) => n + 1), []);
  // How a checkout went is said at the top, where the person lands back from the processor's page.
  const [checkout, setCheckout] = useState<Said>(null);
  const announce = useCallback((text: string) => setCheckout({ text, ok: true }), []);
  // "Personal" is said only to its owner: an invitee is in someone else's organisation, named in the heading.
  const kind =
    org.org_type === "personal" && shell.membership.role === "owner"
      ? "Your personal organisation"
      : "Team organisation";
  return (
    <main className="account">
      <header className="account-head">
        <h1>{org.name}</h1>
        <p className="muted">
          {kind} · you are {ROLE_PHRASE[shell.membership.role]}
        </p>
        <Outcome said={checkout} />
        <nav aria-label="Account sections" className="account-nav">
          {SECTIONS.filter((s) => admin || s.id !== "team-h").map((s) => (
            <button key={s.id} type="button" className="link" onClick={() => jump(s.id)}>
              {s.label}
            </button>
          ))}
        </nav>
      </header>
      <Credits shell={shell} reload={reload} />
      {admin && <Team shell={shell} />}
      <AssumptionsSection shell={shell} />
      <Plan shell={shell} onPaid={onPaid} announce={announce} />
    </main>
  );
}
