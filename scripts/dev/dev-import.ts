// `npm run dev -- --import "<council>"`: the council imported from the ArcGIS stand-in's fixtures (synthetic geometry
// over real suburbs) and published as public pack nsw-<council>, once: a later start finds it published and leaves it
// (its lots answer before the world's there; a new version is `npm run import -- nsw --lga ... --from-standin --publish`).
import { STANDIN_SOURCES, startArcgisStandin } from "../../standins/arcgis/server.ts";
import { lgaArea } from "../import/area.ts";
import { importNsw } from "../import/import-nsw.ts";
import { publishPack } from "../pack/publish.ts";
import { REGISTRY_KEY, withLocalBucket } from "../world/local-r2.ts";

/** The council named by `--import <name>` (or `--import=<name>`) in `argv`, or null. */
export function importFlag(argv: readonly string[]): string | null {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a.startsWith("--import=")) return a.slice("--import=".length).trim() || null;
    if (a === "--import") {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith("--"))
        throw new Error('--import needs a council name: --import "Hunters Hill"');
      return next.trim();
    }
  }
  return null;
}

/** Imports and publishes `lga` from the stand-in unless the registry names a version of it already. */
export async function devImport(
  lga: string,
  opts: { persistTo: string; api: string; dataDir: string; log?: (line: string) => void },
): Promise<void> {
  const log = opts.log ?? console.log;
  const area = lgaArea(lga);
  const id = `nsw-${area.slug}`;
  const named = await withLocalBucket(opts.persistTo, async (bucket) => {
    const reg = await bucket.get(REGISTRY_KEY);
    return reg ? ((JSON.parse(await reg.text()) as { packs?: Record<string, string> }).packs?.[id] ?? null) : null;
  });
  if (named) {
    log(
      `import: ${id} is published already (${named}); a new version: npm run import -- nsw --lga "${lga}" --from-standin --publish`,
    );
    return;
  }
  const standin = await startArcgisStandin();
  try {
    const r = await importNsw({
      area,
      out: `${opts.dataDir}/nsw-${area.slug}.pack`,
      cache: `${opts.dataDir}/import-cache-standin`,
      urls: standin.urls,
      sources: STANDIN_SOURCES,
      synthetic: true,
      progress: () => {},
    });
    // The first version: nothing to compare, so the API need not be up yet.
    await publishPack(r.out, { ...opts, log });
    log(`import: ${area.label} from the ArcGIS stand-in (synthetic geometry), ${r.lots} lots, over the world's there`);
  } finally {
    await standin.stop();
  }
}
