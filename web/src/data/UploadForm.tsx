// Upload a pack: a file by drag and drop or the file picker, its name and layer, then progress until it is built.
import { type FormEvent, useId, useState } from "react";
import type { Api, UploadedPack } from "../api.ts";
import { Outcome, useOutcome } from "../account/Confirm.tsx";
import { DropZone } from "../components/DropZone.tsx";
import { postForm, type Sent } from "../upload.ts";
import { bytes, UPLOAD_LAYERS } from "./format.ts";

type Phase = { kind: "idle" } | { kind: "sending"; sent: Sent } | { kind: "building" };

const ACCEPT = ".geojson,.json,.zip,application/geo+json,application/json,application/zip";
// The file's name without its extension ("parramatta-lots-mga56.zip" -> "parramatta lots mga56").
const nameOf = (file: File) => file.name.replace(/\.(geo)?json$|\.zip$/i, "").replace(/[_-]+/g, " ");

export function UploadForm({
  api,
  empty,
  onUploaded,
  report,
}: {
  api: Api;
  /** The organisation has no data yet: the drop zone says what to do. */
  empty: boolean;
  onUploaded: (pack: UploadedPack) => void;
  report: (p: unknown) => void;
}) {
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState("");
  const [layer, setLayer] = useState("lots");
  const [fields, setFields] = useState("");
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });
  const { said, ok, fail, clear } = useOutcome(report);
  const id = useId();
  const busy = phase.kind !== "idle";

  const choose = (f: File) => {
    if (busy) return;
    setFile(f);
    setName((n) => (n.trim() === "" || (file && n === nameOf(file)) ? nameOf(f) : n));
    clear();
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!file || name.trim() === "") return;
    const form = new FormData();
    form.append("file", file);
    form.append("name", name.trim());
    form.append("layer", layer);
    if (fields.trim() !== "") form.append("fields", fields.trim());
    clear();
    setPhase({ kind: "sending", sent: { loaded: 0, total: file.size } });
    try {
      const pack = await postForm<UploadedPack>(api, "/packs", form, {
        onProgress: (sent) => setPhase({ kind: "sending", sent }),
        onSent: () => setPhase({ kind: "building" }),
      });
      ok(
        pack.state === "processing"
          ? `Uploaded “${pack.name}”: ${pack.features.toLocaleString()} features, being built; its progress shows below.`
          : `Uploaded “${pack.name}”: ${pack.features.toLocaleString()} features.`,
      );
      setFile(null);
      setName("");
      setFields("");
      onUploaded(pack);
    } catch (err) {
      fail(err);
    } finally {
      setPhase({ kind: "idle" });
    }
  }

  return (
    <form className="upload" onSubmit={(e) => void submit(e)} aria-label="Upload a pack">
      <DropZone
        name="Upload data"
        caption="or choose a file"
        accept={ACCEPT}
        disabled={busy}
        onFile={choose}
        intro={
          <p>
            {empty
              ? "No data of your own yet — drop a GeoJSON or zipped Shapefile here"
              : "Drop a GeoJSON or zipped Shapefile (.shp, .dbf, .prj) here"}
          </p>
        }
      >
        {file && (
          <p className="chosen">
            <strong>{file.name}</strong> · {bytes(file.size)}
          </p>
        )}
        <p className="muted small">Up to 25 MiB and 250,000 features; Shapefiles in GDA94, GDA2020 or WGS84.</p>
      </DropZone>
      <div className="upload-fields">
        <label htmlFor={`${id}-name`}>Name</label>
        <input
          id={`${id}-name`}
          value={name}
          maxLength={200}
          required
          disabled={busy}
          onChange={(e) => setName(e.target.value)}
        />
        <label htmlFor={`${id}-layer`}>Layer</label>
        <select id={`${id}-layer`} value={layer} disabled={busy} onChange={(e) => setLayer(e.target.value)}>
          {UPLOAD_LAYERS.map((l) => (
            <option key={l.id} value={l.id}>
              {l.label}
            </option>
          ))}
        </select>
      </div>
      <details className="mapping">
        <summary>Field mapping (optional)</summary>
        <label htmlFor={`${id}-fields`}>Fields</label>
        <input
          id={`${id}-fields`}
          value={fields}
          disabled={busy}
          placeholder='{"lot_id": "LOTKEY"}'
          onChange={(e) => setFields(e.target.value)}
        />
        <p className="muted small">
          A JSON object of pack field to your file's property. Official names (NSW cadastre, Planning Portal) are found
          without one.
        </p>
      </details>
      <div className="actions">
        <button type="submit" className="primary" disabled={!file || name.trim() === "" || busy}>
          Upload pack
        </button>
      </div>
      {phase.kind === "sending" && (
        <div className="progress">
          <progress aria-label="Upload progress" max={phase.sent.total || 1} value={phase.sent.loaded} />
          <span role="status">
            Sending {bytes(phase.sent.loaded)} of {bytes(phase.sent.total)}…
          </span>
        </div>
      )}
      {phase.kind === "building" && (
        <div className="progress">
          <progress aria-label="Upload progress" />
          <span role="status">Building the pack…</span>
        </div>
      )}
      <Outcome said={said} />
    </form>
  );
}
