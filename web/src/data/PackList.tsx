// The organisation's own packs: what each holds, who added it and when, and its actions (show on map, delete).
import type { PackSummary } from "../api.ts";
import { ago, box, bytes, exact, layerLabel } from "./format.ts";

/** A pack's build: a progress bar while it is built, the reason when its newest upload failed; nothing when ready. */
function BuildState({ pack }: { pack: PackSummary }) {
  if (pack.state === "processing") {
    const pct = Math.round(pack.progress * 100);
    return (
      <p className="small">
        <label>
          Building ({pct}%){" "}
          <progress aria-label={`Building ${pack.title}`} max={1} value={pack.progress}>
            {pct}%
          </progress>
        </label>
      </p>
    );
  }
  if (pack.state === "failed") {
    return (
      <p className="small error" role="alert">
        The upload of {pack.title} failed: {pack.failure ?? "no reason was given"}
      </p>
    );
  }
  return null;
}

export function PackList({
  packs,
  canDelete,
  onShow,
  onDelete,
}: {
  packs: PackSummary[];
  canDelete: boolean;
  onShow: (p: PackSummary) => void;
  onDelete: (p: PackSummary) => void;
}) {
  return (
    <ul className="pack-list" aria-label="Your data">
      {packs.map((p) => (
        <li key={p.id} className="pack">
          <div className="pack-head">
            <h3 className="pack-title">{p.title}</h3>
            <span className="tag">{layerLabel(p.upload?.layer ?? p.layers[0]?.name ?? "")}</span>
          </div>
          <BuildState pack={p} />
          <dl className="facts">
            <dt>Features</dt>
            <dd>{p.features.toLocaleString()}</dd>
            <dt>Size</dt>
            <dd>{bytes(p.size)}</dd>
            {p.upload && (
              <>
                <dt>Uploaded</dt>
                <dd>
                  by {p.upload.uploaded_by},{" "}
                  <time dateTime={p.upload.uploaded_at} title={exact(p.upload.uploaded_at)}>
                    {ago(p.upload.uploaded_at)}
                  </time>
                </dd>
                <dt>File</dt>
                <dd>{p.upload.source}</dd>
              </>
            )}
            <dt>Covers</dt>
            <dd>{box(p.bbox)}</dd>
          </dl>
          <div className="actions pack-actions">
            <button type="button" aria-label={`Show ${p.title} on map`} onClick={() => onShow(p)}>
              Show on map
            </button>
            {canDelete && (
              <button type="button" className="danger" aria-label={`Delete ${p.title}`} onClick={() => onDelete(p)}>
                Delete
              </button>
            )}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** The service's packs, read-only: what they cover and where they come from. */
export function PublicPacks({ packs }: { packs: PackSummary[] }) {
  return (
    <ul className="pack-list public" aria-label="Public data">
      {packs.map((p) => (
        <li key={p.id} className="pack">
          <div className="pack-head">
            <h3 className="pack-title">{p.title}</h3>
            <span className="muted small">version {p.version}</span>
          </div>
          <p className="small">
            {p.layers.map((l) => `${layerLabel(l.name)} (${l.count.toLocaleString()})`).join(" · ")}
          </p>
          <p className="muted small">
            {p.licence}. {p.attribution}
          </p>
        </li>
      ))}
    </ul>
  );
}
