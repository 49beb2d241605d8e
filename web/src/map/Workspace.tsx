// The map view: search and layers over the map; a side panel for the clicked site, the chat and batch scoring.
import { type CSSProperties, useCallback, useEffect, useRef, useState } from "react";
import type { Shell } from "../shell.ts";
import { BottomSheet, PEEK_PX, type Snap } from "../components/BottomSheet.tsx";
import { usePhone } from "../components/usePhone.ts";
import { mapChunk, useChunk } from "../chunks.ts";
import { type Facts, Problem, type ScoreAnswer, type ScoreRequest, type SiteRow, type Suggestion } from "../api.ts";
import type { MapPack } from "./packs.ts";
import type { BBox, MapController } from "./controller.ts";
import { showOnly, TOGGLE_OF_LAYER, TOGGLES, type Toggle } from "./style.ts";
import { BatchPanel } from "./BatchPanel.tsx";
import { ChatPanel } from "./ChatPanel.tsx";
import { FindSites } from "./find/FindSites.tsx";
import { formFromParams } from "./find/query.ts";
import { LayerPanel } from "./LayerPanel.tsx";
import { ParcelPanel } from "./ParcelPanel.tsx";
import { SearchBox } from "./SearchBox.tsx";
import { fromAnswer, fromBatchRow, type PaidScore, type ScoredHere, scoredFor, withScore } from "./scored-here.ts";
import { SaveSite } from "../alerts/SaveSite.tsx";
import { SavedSites } from "../alerts/SavedSites.tsx";
import { SettingUp } from "../components/NeedsOrganisation.tsx";

type Tab = "site" | "find" | "chat" | "batch" | "saved" | "layers";
// `short`: the word a phone's narrow tab shows (its accessible name stays the label).
const TABS: { id: Tab; label: string; short?: string }[] = [
  { id: "site", label: "Site" },
  { id: "find", label: "Find sites", short: "Find" },
  { id: "chat", label: "Chat" },
  { id: "batch", label: "Batch & report", short: "Batch" },
  { id: "saved", label: "Saved" },
];
// On a phone the layer toggles and the legend are a panel of the sheet, not a box over the map.
const LAYERS_TAB: { id: Tab; label: string; short?: string } = { id: "layers", label: "Layers" };

/** The box around some points, or null for none. */
function boundsOf(points: readonly [number, number][]): BBox | null {
  if (points.length === 0) return null;
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

export default function Workspace({ shell }: { shell: Shell }) {
  const { api } = shell.auth;
  // The batch and saved-sites panels read the organisation's own lists, so they wait for post-signup; the map does not.
  const joined = shell.membership !== null;
  const [packs, setPacks] = useState<MapPack[] | null>(null);
  // A pack shown from the Data page has its layer switched on.
  const [visible, setVisible] = useState(() => {
    const on = shell.focus ? TOGGLE_OF_LAYER[shell.focus.layer] : undefined;
    return Object.fromEntries(TOGGLES.map((t) => [t.id, t.on || t.id === on])) as Record<Toggle, boolean>;
  });
  // A link with a search in it opens on that search.
  const [linkedSearch] = useState(() => formFromParams(new URLSearchParams(location.search)));
  const [tab, setTab] = useState<Tab>(linkedSearch ? "find" : "site");
  const phone = usePhone();
  // A linked search opens with its form and count in view; otherwise the map has the screen.
  const [sheet, setSheet] = useState<Snap>(linkedSearch ? "half" : "peek");
  const [facts, setFacts] = useState<Facts | null>(null);
  // A sentence in the Site panel in place of facts: a click that found no lot, or a place with no lots.
  const [note, setNote] = useState<string | null>(null);
  // The suburb under the map's centre, which the search box shows.
  const [place, setPlace] = useState<string | null>(null);
  const [loadingFacts, setLoadingFacts] = useState(false);
  // Each lot's paid score in this tab: returning to a scored lot shows it again without charging.
  const [scores, setScores] = useState<ScoredHere>(() => new Map());
  const [scoring, setScoring] = useState(false);
  const [rows, setRows] = useState<SiteRow[]>([]);
  const [token, setToken] = useState<string | null>(null);
  const mapRef = useRef<MapController | null>(null);
  const [mapReady, setMapReady] = useState(false);
  // Each drawing of the map's style starts with empty drawn layers: what the panels drew is drawn again.
  const [mapGen, setMapGen] = useState(0);
  const [found, setFound] = useState({ lots: 0, groups: 0 });
  // A file Find sites handed to batch scoring, uploaded by the batch panel as if the person had dropped it.
  const [queued, setQueued] = useState<File | null>(null);
  const map = useCallback(() => mapRef.current, []);
  const { report } = shell;
  const MapCanvas = useChunk(mapChunk, report);
  const tabs = phone ? [...TABS, LAYERS_TAB] : TABS;
  // A hidden panel's lists load once the map's first view is drawn: their requests would queue its tiles behind them.
  const later = (t: Tab) => mapReady || tab === t;
  const counted = (t: Tab) => (t === "batch" && rows.length > 0 ? ` (${rows.length})` : "");
  if (!phone && tab === "layers") setTab("site");
  // On a phone, a panel asked for (a tab, Find sites handing over to batch) opens at least to half the screen.
  const show = (t: Tab) => {
    setTab(t);
    if (phone && sheet === "peek") setSheet("half");
  };

  useEffect(() => {
    shell.packs.then(setPacks, report);
    api.token().then(setToken);
    const { data } = shell.auth.supabase.auth.onAuthStateChange((_e, s) => setToken(s?.access_token ?? null));
    return () => data.subscription.unsubscribe();
  }, [api, report, shell.auth.supabase, shell.packs]);

  // Scored sites (batch rows and single scores) are drawn by rating, again whenever the map is drawn again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: mapGen is the map being drawn again, which clears it
  useEffect(() => {
    mapRef.current?.setSites({
      type: "FeatureCollection",
      features: rows.flatMap((r) =>
        r.kind === "result" ? [{ ...r.parcel.geojson, properties: { lot_id: r.parcel.lot_id, rating: r.rating } }] : [],
      ),
    });
  }, [rows, mapGen]);

  // `paid`: a score already paid for (a batch row's), shown with the facts when they are of the lot it scored.
  const pick = useCallback(
    (q: string, paid?: PaidScore) => {
      setTab("site");
      setNote(null);
      setLoadingFacts(true);
      api
        .get<Facts>(`/parcels?${q}`)
        .then(
          (f) => {
            if (paid && paid.parcel.lot_id === f.lot_id && paid.parcel.pack_id === f.pack_id)
              setScores((m) => (scoredFor(m, f) ? m : withScore(m, f, paid)));
            setFacts(f);
            mapRef.current?.setSelected(f.geometry);
          },
          (err: unknown) => {
            // A click on a road or a park is not a problem: the panel says so and what to do instead.
            if (!(err instanceof Problem) || err.status !== 404) return report(err);
            setFacts(null);
            mapRef.current?.setSelected(null);
            setNote(
              `${err.message}. Click inside a lot's outline (lots are drawn from zoom 14), or search a suburb or lot id.`,
            );
          },
        )
        .finally(() => setLoadingFacts(false));
    },
    [api, report],
  );

  // A saved site or a notification's lot: the map flies there and the Site panel opens its facts.
  const openLot = useCallback(
    (t: { bbox: number[]; query: string }) => {
      void mapRef.current?.goTo(t.bbox as BBox, 18);
      pick(t.query);
    },
    [pick],
  );

  // A batch row: the map goes to its lot and the Site panel opens its facts with the score the batch paid for.
  const openRow = useCallback(
    (r: Extract<SiteRow, { kind: "result" }>) => {
      const ring = r.parcel.geojson.geometry.type === "Polygon" ? r.parcel.geojson.geometry.coordinates[0] : undefined;
      const box = boundsOf((ring as [number, number][] | undefined) ?? [r.parcel.centroid]);
      if (box) void mapRef.current?.goTo(box, 18);
      const [lng, lat] = r.parcel.centroid;
      const q = r.parcel.lot_id
        ? `lot_id=${encodeURIComponent(r.parcel.lot_id)}`
        : `lng=${lng.toFixed(7)}&lat=${lat.toFixed(7)}`;
      pick(q, fromBatchRow(r));
    },
    [pick],
  );

  const choose = async (s: Suggestion) => {
    const m = mapRef.current;
    if (!m) return;
    setNote(null);
    if (s.kind === "lot" && s.lot_id) {
      void m.goTo(s.bbox, 18);
      pick(`lot_id=${encodeURIComponent(s.lot_id)}`);
      return;
    }
    await m.goTo(s.bbox, 16);
    if (m.lotsInView() > 0) return;
    const covered = packs?.filter((p) => p.layers.some((l) => l.name === "parcels")).map((p) => p.title) ?? [];
    setFacts(null);
    setTab("site");
    setNote(
      `There are no lots for ${s.name} in the data yet${covered.length ? ` (loaded: ${covered.join(", ")})` : ""}. ` +
        "Search a suburb they cover, or upload your own lots on the Data page.",
    );
  };

  async function scoreSite() {
    if (!facts) return;
    setScoring(true);
    try {
      const body: ScoreRequest = facts.lot_id
        ? { lot_id: facts.lot_id }
        : { lng: facts.centroid[0], lat: facts.centroid[1] };
      const answer = await api.post<ScoreAnswer>("/parcels/score", body, { "Idempotency-Key": crypto.randomUUID() });
      setScores((m) => withScore(m, facts, fromAnswer(answer)));
      shell.setBalance(answer.balance);
      setRows((r) => [
        ...r.filter((x) => x.kind !== "result" || x.parcel.lot_id !== answer.parcel.lot_id),
        {
          kind: "result",
          index: r.length,
          line: 0,
          input: { site_name: answer.parcel.address ?? answer.parcel.lot_id ?? "site" },
          ...answer,
        },
      ]);
    } catch (err) {
      report(err);
    } finally {
      setScoring(false);
    }
  }

  const withLayers =
    packs?.map((p) => ({
      id: p.id,
      // A v2 pack's tiles carry layers its summary does not list (generalised zoning below the lots' zoom).
      layers: [...new Set([...p.layers.map((l) => l.name), ...(p.tilejson?.vector_layers.map((v) => v.id) ?? [])])],
      own: p.private,
      tilejson: p.tilejson ?? null,
    })) ?? [];
  // The map is styled with its sources: a new or deleted pack restyles it (its view stays, it is in the URL).
  const packKey = packs?.map((p) => `${p.id}@${p.version}`).join(",");
  const home = packs?.find((p) => p.layers.some((l) => l.name === "parcels"))?.bbox ?? packs?.[0]?.bbox;

  const layers = (
    <LayerPanel
      docked={phone}
      ownLots={packs?.some((p) => p.private && p.layers.some((l) => l.name === "parcels")) ?? false}
      found={found.lots > 0}
      groups={found.groups > 0}
      visible={visible}
      offline={!shell.auth.config.basemap_style_url}
      onToggle={(t, on) => {
        const next = showOnly(visible, t, on);
        setVisible(next);
        for (const k of TOGGLES) if (next[k.id] !== visible[k.id]) mapRef.current?.setLayer(k.id, next[k.id]);
      }}
    />
  );

  return (
    <main className="workspace" style={phone ? ({ "--sheet-peek": `${PEEK_PX}px` } as CSSProperties) : undefined}>
      <section className="map-area" aria-label="Map area" aria-busy={!mapReady}>
        <div className="map-tools">
          <SearchBox api={api} onChoose={(s) => void choose(s)} onProblem={report} place={place} />
          {!phone && layers}
        </div>
        {MapCanvas && packs && home && token ? (
          <MapCanvas
            key={packKey}
            packs={withLayers}
            visible={visible}
            token={() => token}
            basemapStyleUrl={shell.auth.config.basemap_style_url}
            initialBounds={home as BBox}
            focus={shell.focus?.bbox as BBox | undefined}
            onReady={(c) => {
              mapRef.current = c;
              setMapReady(true);
              setMapGen((g) => g + 1);
              // The map opened on the focus (MapCanvas's focus prop): a later remount keeps the URL's view.
              if (shell.focus) shell.clearFocus();
            }}
            onPick={([lng, lat]) => pick(`lng=${lng.toFixed(7)}&lat=${lat.toFixed(7)}`)}
            onPlace={setPlace}
            onError={(m) => report(new Error(m))}
          />
        ) : (
          <p className="map-loading" role="status">
            Loading the map…
          </p>
        )}
      </section>
      <BottomSheet enabled={phone} snap={sheet} onSnap={setSheet}>
        <div role="tablist" aria-label="Panels" className="tabs">
          {tabs.map((t) => (
            <button
              key={t.id}
              type="button"
              role="tab"
              id={`tab-${t.id}`}
              aria-selected={tab === t.id}
              aria-controls={`panel-${t.id}`}
              onClick={() => show(t.id)}
              aria-label={phone && t.short ? `${t.label}${counted(t.id)}` : undefined}
            >
              {phone && t.short ? t.short : t.label}
              {counted(t.id)}
            </button>
          ))}
        </div>
        <div role="tabpanel" id="panel-site" aria-labelledby="tab-site" hidden={tab !== "site"}>
          <ParcelPanel
            facts={facts}
            note={note}
            loading={loadingFacts}
            score={scoredFor(scores, facts)}
            scoring={scoring}
            onScore={() => void scoreSite()}
            packTitle={(id) => packs?.find((p) => p.id === id)?.title ?? id}
            save={<SaveSite api={api} lotId={facts?.lot_id ?? null} onProblem={report} />}
          />
        </div>
        <div role="tabpanel" id="panel-find" aria-labelledby="tab-find" hidden={tab !== "find"}>
          <FindSites
            api={api}
            map={map}
            mapGen={mapGen}
            initial={linkedSearch}
            balance={shell.balance}
            scored={rows}
            onScore={(file) => {
              setQueued(file);
              show("batch");
            }}
            onFound={setFound}
            onProblem={report}
          />
        </div>
        <div role="tabpanel" id="panel-chat" aria-labelledby="tab-chat" hidden={tab !== "chat"}>
          <ChatPanel
            api={api}
            map={() => mapRef.current}
            visibleLayers={() => TOGGLES.filter((t) => visible[t.id]).map((t) => t.id)}
            onBalance={shell.setBalance}
            onProblem={report}
          />
        </div>
        <div role="tabpanel" id="panel-batch" aria-labelledby="tab-batch" hidden={tab !== "batch"}>
          {!joined ? (
            <SettingUp className="placeholder" />
          ) : later("batch") ? (
            <BatchPanel
              api={api}
              rows={rows}
              setRows={setRows}
              queued={queued}
              onQueuedTaken={() => setQueued(null)}
              onBalance={shell.setBalance}
              onDone={shell.refreshBalance}
              onOpenRow={openRow}
              onScored={(sites) => {
                const box = boundsOf(sites.map((s) => s.parcel.centroid));
                if (box) mapRef.current?.fitBounds(box, 17);
              }}
              onProblem={report}
            />
          ) : null}
        </div>
        <div role="tabpanel" id="panel-saved" aria-labelledby="tab-saved" hidden={tab !== "saved"}>
          {!joined ? (
            <SettingUp className="placeholder" />
          ) : later("saved") ? (
            <SavedSites
              api={api}
              place={place}
              ready={mapReady}
              packTitle={(id) => packs?.find((p) => p.id === id)?.title ?? null}
              onOpen={openLot}
              onProblem={report}
            />
          ) : null}
        </div>
        {phone && (
          <div role="tabpanel" id="panel-layers" aria-labelledby="tab-layers" hidden={tab !== "layers"}>
            {layers}
          </div>
        )}
      </BottomSheet>
    </main>
  );
}
