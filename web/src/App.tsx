// The workspace shell: sign-in until there is a session, then the header and the chosen view.
import type { Session } from "@supabase/supabase-js";
import { useCallback, useEffect, useRef, useState } from "react";
import { type Balance, type PostSignup, Problem } from "./api.ts";
import { accountChunk, dataChunk, mapChunk, useChunk, workspaceChunk } from "./chunks.ts";
import { Header } from "./components/Header.tsx";
import { Notice } from "./components/Notice.tsx";
import { SignIn } from "./components/SignIn.tsx";
import { WorldBanner } from "./components/WorldBanner.tsx";
import { loadMapPacks, type MapPack } from "./map/packs.ts";
import { type Auth, postSignup } from "./session.ts";
import type { MapFocus, Shell, View } from "./shell.ts";

const VIEWS: View[] = ["account", "data"];
const viewOf = (path: string): View => VIEWS.find((v) => path.startsWith(`/${v}`)) ?? "map";

export function App({ auth }: { auth: Auth }) {
  const [session, setSession] = useState<Session | null | undefined>(undefined);
  const [membership, setMembership] = useState<PostSignup | null>(null);
  const [balance, setBalance] = useState<number | null>(null);
  const [packs, setPacks] = useState<Promise<MapPack[]>>(() => new Promise(() => {}));
  const [problem, setProblem] = useState<Problem | null>(null);
  const [view, setView] = useState<View>(viewOf(location.pathname));
  const [focus, setFocus] = useState<MapFocus | null>(null);
  const mapQuery = useRef(view === "map" ? location.search : "");

  // Once the first screen has painted, fetch the map's code in the background: signing in then waits on no download.
  useEffect(() => {
    const t = setTimeout(() => {
      workspaceChunk.load().catch(() => {});
      mapChunk.load().catch(() => {});
    }, 300);
    return () => clearTimeout(t);
  }, []);

  useEffect(() => {
    auth.supabase.auth.getSession().then(({ data }) => setSession(data.session));
    const { data } = auth.supabase.auth.onAuthStateChange((_event, s) => setSession(s));
    const onPop = () => setView(viewOf(location.pathname));
    addEventListener("popstate", onPop);
    return () => {
      data.subscription.unsubscribe();
      removeEventListener("popstate", onPop);
    };
  }, [auth]);

  const report = useCallback(
    (p: unknown) => {
      const problem = p instanceof Problem ? p : new Problem("Something went wrong. Please try again.", 0, "retry");
      setProblem(problem);
      if (problem.way === "sign-in") void auth.supabase.auth.signOut();
    },
    [auth],
  );

  const View = useChunk(view === "map" ? workspaceChunk : view === "data" ? dataChunk : accountChunk, report);

  const refreshBalance = useCallback(() => {
    auth.api.get<Balance>("/billing/credits/balance").then((b) => setBalance(b.balance), report);
  }, [auth, report]);

  // With a session, make sure the user has an organisation (post-signup is idempotent), then read the balance.
  useEffect(() => {
    if (!session) {
      setMembership(null);
      return;
    }
    const joined = postSignup(auth);
    // Alongside post-signup, not after it: a returning user's map needs only the pack list (a new user's waits for the org).
    const mapPacks = loadMapPacks(auth.api).catch(() => joined.then(() => loadMapPacks(auth.api)));
    mapPacks.catch(() => {});
    setPacks(mapPacks);
    joined.then((m) => {
      setMembership(m);
      refreshBalance();
    }, report);
  }, [session, auth, refreshBalance, report]);

  const reloadPacks = useCallback(() => {
    const mapPacks = loadMapPacks(auth.api);
    mapPacks.catch(() => {});
    setPacks(mapPacks);
  }, [auth]);

  const go = (v: View) => {
    // The map's query string holds its Find sites search: kept aside while away, so coming back restores it.
    if (view === "map") mapQuery.current = location.search;
    history.pushState(null, "", `/${v}${v === "map" ? mapQuery.current : ""}${location.hash}`);
    setView(v);
  };

  if (session === undefined) return <p className="boot">Loading the workspace…</p>;
  if (session === null)
    return (
      <>
        <WorldBanner api={auth.api} />
        {problem && problem.way !== "sign-in" && <Notice problem={problem} onClose={() => setProblem(null)} />}
        <SignIn
          auth={auth}
          onSignedIn={() => setProblem(null)}
          notice={problem?.way === "sign-in" ? problem.message : null}
        />
      </>
    );
  const shell: Shell = {
    auth,
    membership,
    userId: session.user.id,
    balance,
    setBalance,
    refreshBalance,
    report,
    packs,
    reloadPacks,
    showOnMap: (f) => {
      setFocus(f);
      go("map");
    },
    focus,
    clearFocus: () => setFocus(null),
  };
  return (
    <div className="app">
      <Header shell={shell} view={view} go={go} email={session.user.email ?? ""} />
      <WorldBanner api={auth.api} onReady={reloadPacks} />
      {problem && <Notice problem={problem} onClose={() => setProblem(null)} onAccount={() => go("account")} />}
      {View ? <View shell={shell} /> : <p className="boot">Loading…</p>}
    </div>
  );
}
