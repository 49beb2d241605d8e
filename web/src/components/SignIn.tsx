// Sign in, or create an account; the post-signup step follows in the shell.
import { type FormEvent, useCallback, useEffect, useState } from "react";
import { Problem } from "../api.ts";
import { type Auth, signIn, signUp } from "../session.ts";

export function SignIn({ auth, onSignedIn, notice }: { auth: Auth; onSignedIn: () => void; notice: string | null }) {
  const [mode, setMode] = useState<"in" | "up">("in");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(notice);

  // While a person types, build the page's map, compile its shaders and load the offline basemap and its glyphs (its
  // code is fetched after first paint anyway).
  const offline = !auth.config.basemap_style_url;
  const warm = useCallback(
    () => void import("../map/shared.ts").then((m) => m.sharedMap({ offline })).catch(() => {}),
    [offline],
  );
  useEffect(() => {
    const t = setTimeout(warm, 300);
    return () => clearTimeout(t);
  }, [warm]);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const email = String(form.get("email") ?? "").trim();
    const password = String(form.get("password") ?? "");
    setBusy(true);
    setError(null);
    const signingIn = mode === "in" ? signIn(auth, email, password) : signUp(auth, email, password);
    // Pressed before the map was built: build it now, while the identity provider answers (issue 51, item 7).
    warm();
    try {
      await signingIn;
      onSignedIn();
    } catch (err) {
      setError(err instanceof Problem ? err.message : "Sign-in failed. Please try again.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="signin">
      <section className="signin-card" aria-labelledby="signin-title">
        <p className="brand-mark" aria-hidden="true">
          ▲
        </p>
        <h1 id="signin-title">{mode === "in" ? "Sign in to your workspace" : "Create your account"}</h1>
        <p className="muted">
          Site feasibility for Australian property development: lots, planning controls, constraints and a score.
        </p>
        <form onSubmit={submit}>
          <label>
            Email
            <input name="email" type="email" autoComplete="email" required />
          </label>
          <label>
            Password
            <input
              name="password"
              type="password"
              autoComplete={mode === "in" ? "current-password" : "new-password"}
              minLength={6}
              required
            />
          </label>
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" className="primary" disabled={busy}>
            {busy ? "Please wait…" : mode === "in" ? "Sign in" : "Create account"}
          </button>
        </form>
        <p className="switch">
          {mode === "in" ? "New here?" : "Already have an account?"}{" "}
          <button type="button" className="link" onClick={() => setMode(mode === "in" ? "up" : "in")}>
            {mode === "in" ? "Create account" : "Sign in instead"}
          </button>
        </p>
        <p className="muted small">
          Demo: owner@demo.test, admin@demo.test or member@demo.test with password demo-password.
        </p>
      </section>
    </main>
  );
}
