// The Data page: the organisation's own packs (upload for owners and admins, show on map, delete) and the public packs.
import { useEffect, useState } from "react";
import type { JoinedShell } from "../shell.ts";
import type { PackSummary } from "../api.ts";
import { Outcome, useConfirm, useOutcome } from "../account/Confirm.tsx";
import type { BBox } from "../map/controller.ts";
import { PackList, PublicPacks } from "./PackList.tsx";
import { UploadForm } from "./UploadForm.tsx";

const POLL_MS = 2_000;

export default function Data({ shell }: { shell: JoinedShell }) {
  const { api } = shell.auth;
  const { report, reloadPacks } = shell;
  const admin = shell.membership.role !== "member";
  const [packs, setPacks] = useState<PackSummary[] | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const { ask, dialog } = useConfirm();
  const { said, ok, fail } = useOutcome(report);

  // Every reload of the shell's pack list (after an upload or a delete) is shown here and on the map alike.
  useEffect(() => {
    let live = true;
    shell.packs.then((p) => live && setPacks(p), report);
    return () => {
      live = false;
    };
  }, [shell.packs, report]);

  const own = packs?.filter((p) => p.private) ?? [];
  const building = own.some((p) => p.state === "processing");

  // While an upload is being built, the list is read again every few seconds to show its progress.
  useEffect(() => {
    if (!building) return;
    const timer = setInterval(reloadPacks, POLL_MS);
    return () => clearInterval(timer);
  }, [building, reloadPacks]);
  const pub = packs?.filter((p) => !p.private) ?? [];

  const show = (p: PackSummary) =>
    shell.showOnMap({ bbox: p.bbox as BBox, layer: p.upload?.layer ?? p.layers[0]?.name ?? "" });

  async function remove(p: PackSummary) {
    const yes = await ask({
      title: `Delete “${p.title}”?`,
      body: `Its ${p.features.toLocaleString()} features leave the map, scoring and chat for everyone in ${shell.membership.name}. This cannot be undone.`,
      confirm: "Delete pack",
    });
    if (!yes) return;
    setDeleting(p.id);
    try {
      await api.delete(`/packs/${encodeURIComponent(p.id)}`);
      ok(`Deleted “${p.title}”.`);
      reloadPacks();
    } catch (err) {
      fail(err);
    } finally {
      setDeleting(null);
    }
  }

  return (
    <main className="account data">
      <header className="account-head">
        <h1>Data</h1>
        <p className="muted">
          Your organisation's own layers, used by the map, scoring, batch, chat and reports; no one else can see them.
        </p>
      </header>
      <section aria-labelledby="own-h">
        <h2 id="own-h">Your data</h2>
        {admin ? (
          <UploadForm
            api={api}
            empty={packs !== null && own.length === 0}
            onUploaded={() => reloadPacks()}
            report={report}
          />
        ) : (
          <p className="muted">An owner or admin of your organisation can add data here.</p>
        )}
        <Outcome said={said} />
        {packs === null ? (
          <p role="status" className="muted">
            Loading your data…
          </p>
        ) : own.length === 0 ? (
          !admin && <p className="placeholder">No data of your own yet.</p>
        ) : (
          <div aria-busy={deleting !== null}>
            <PackList packs={own} canDelete={admin} onShow={show} onDelete={(p) => void remove(p)} />
          </div>
        )}
      </section>
      <section aria-labelledby="public-h">
        <h2 id="public-h">Public data</h2>
        <p className="muted small">Packs the service provides to every organisation (read-only).</p>
        {packs === null ? <p className="muted">Loading…</p> : <PublicPacks packs={pub} />}
      </section>
      {dialog}
    </main>
  );
}
