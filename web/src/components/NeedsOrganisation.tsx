// The account and data views act for the organisation, so they wait for post-signup; the map does not (issue 51, item 7).
import type { ComponentType } from "react";
import type { JoinedShell, Shell } from "../shell.ts";

/** `View` once the organisation is known; until then the sentence that says why it waits. */
export function needsOrganisation(View: ComponentType<{ shell: JoinedShell }>): ComponentType<{ shell: Shell }> {
  return function Joined({ shell }: { shell: Shell }) {
    const { membership } = shell;
    if (!membership)
      return (
        <p className="boot" role="status">
          Setting up your organisation…
        </p>
      );
    return <View shell={{ ...shell, membership }} />;
  };
}
