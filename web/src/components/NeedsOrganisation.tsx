// The account and data views act for the organisation, so they wait for post-signup; the map does not (issue 51, item 7).
import type { ComponentType } from "react";
import type { JoinedShell, Shell } from "../shell.ts";

/** What a view or panel that acts for the organisation shows while post-signup has not answered. */
export function SettingUp({ className = "boot" }: { className?: string }) {
  return (
    <p className={className} role="status">
      Setting up your organisation…
    </p>
  );
}

/** `View` once the organisation is known; until then the sentence that says why it waits. */
export function needsOrganisation(View: ComponentType<{ shell: JoinedShell }>): ComponentType<{ shell: Shell }> {
  return function Joined({ shell }: { shell: Shell }) {
    const { membership } = shell;
    if (!membership) return <SettingUp />;
    return <View shell={{ ...shell, membership }} />;
  };
}
