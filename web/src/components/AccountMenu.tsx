// On a phone the header has room for the views, the balance and notifications only: the organisation, the role
// and Sign out open from this button (styles.css shows it at phone width only).
import { useEffect, useRef, useState } from "react";
import type { PostSignup } from "../api.ts";

/** The organisation's initials, the button's face ("Demo Team" → "DT"). */
export function initials(name: string): string {
  const words = name.split(/\s+/).filter((w) => /\p{L}|\p{N}/u.test(w));
  return (
    words
      .slice(0, 2)
      .map((w) => [...w][0] ?? "")
      .join("")
      .toUpperCase() || "?"
  );
}

export function AccountMenu({
  membership,
  email,
  onSignOut,
}: {
  membership: PostSignup;
  email: string;
  onSignOut: () => void;
}) {
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  // A tap elsewhere or Escape closes it, as a menu does.
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== "Escape") return;
      setOpen(false);
      button.current?.focus();
    };
    document.addEventListener("pointerdown", onDown);
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("pointerdown", onDown);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);

  const { name, org_type, role } = membership;
  return (
    <div className="account-menu" ref={box}>
      <button
        ref={button}
        type="button"
        className="account-menu-button"
        aria-label={`Organisation: ${name}`}
        aria-expanded={open}
        aria-controls="account-menu-panel"
        onClick={() => setOpen((o) => !o)}
      >
        <span aria-hidden="true">{initials(name)}</span>
      </button>
      {open && (
        <section id="account-menu-panel" className="account-menu-panel" aria-label="Organisation details">
          <p className="account-menu-org">{name}</p>
          <p className="muted small">
            {org_type === "personal" && role === "owner" ? "Personal organisation · " : ""}
            {role}
            <br />
            {email}
          </p>
          <button type="button" onClick={onSignOut}>
            Sign out
          </button>
        </section>
      )}
    </div>
  );
}
