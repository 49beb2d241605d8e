// `npm run import -- nsw (--lga "<name>" | --bbox W,S,E,N) [--out <pack>] [--cache <dir>] [--cadastre-url <service>]
// [--planning-url <service>] [--bushfire-url <service>] [--format json|geojson] [--version V] [--from-standin]
// [--publish [--api URL] [--persist-to DIR]]` (docs/design.md section 15). Exit 0 with the pack written (and, with
// --publish, a new version of it published to the dev stack as `npm run pack -- publish` does); 1 with a sentence
// naming the layer and the request.
import { pathToFileURL } from "node:url";
import { STANDIN_SOURCES, startArcgisStandin } from "../../standins/arcgis/server.ts";
import { parseArgs } from "../pack/cli.ts";
import { publishPack, publishTarget } from "../pack/publish.ts";
import { type Area, bboxArea, lgaArea } from "./area.ts";
import { ImportError } from "./errors.ts";
import { importNsw } from "./import-nsw.ts";
import { DEFAULT_URLS, type ServiceKey } from "./nsw.ts";

export const USAGE = `usage:
  npm run import -- nsw (--lga "<council name>" | --bbox W,S,E,N) [--out FILE.pack] [--cache DIR]
                        [--cadastre-url URL] [--planning-url URL] [--bushfire-url URL]
                        [--format json|geojson] [--version V] [--from-standin]
                        [--publish [--api URL] [--persist-to DIR]]
      the NSW cadastre, planning controls and bush fire prone land over the area, from the NSW open-data ArcGIS
      services (or, with --from-standin, from the local stand-in's synthetic fixtures), as a v2 lots pack with each
      layer's provenance and each lot's neighbours (for amalgamation); completed pages are kept under --cache (default .data/import-cache) so a re-run resumes.
      --publish: the pack becomes the next version of public pack nsw-<council> in the running dev stack (as npm run
      pack -- publish FILE): it answers before the world's lots where both lie, and a re-import fires the alerts`;

export async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  if (command !== "nsw") {
    console.error(USAGE);
    process.exitCode = 2;
    return;
  }
  const fromStandin = rest.includes("--from-standin");
  const publish = rest.includes("--publish");
  const { flags } = parseArgs(rest.filter((a) => a !== "--from-standin" && a !== "--publish"));
  const lga = flags.get("lga");
  const bbox = flags.get("bbox");
  if (!lga === !bbox) throw new ImportError('nsw wants either --lga "<council name>" or --bbox W,S,E,N');
  const area: Area = lga ? lgaArea(lga) : bboxArea(bbox as string);
  const format = flags.get("format") ?? "json";
  if (format !== "json" && format !== "geojson") throw new ImportError(`--format is json or geojson, not ${format}`);
  const standin = fromStandin ? await startArcgisStandin() : null;
  try {
    const urls = {} as Record<ServiceKey, string>;
    for (const k of Object.keys(DEFAULT_URLS) as ServiceKey[])
      urls[k] = flags.get(`${k}-url`) ?? standin?.urls[k] ?? DEFAULT_URLS[k];
    const out = flags.get("out") ?? `.data/nsw-${area.slug}.pack`;
    const r = await importNsw({
      area,
      out,
      cache: flags.get("cache") ?? `.data/import-cache${standin ? "-standin" : ""}`,
      urls,
      ...(standin ? { sources: STANDIN_SOURCES } : {}),
      format,
      synthetic: standin !== null,
      version: flags.get("version"),
      showBuildProgress: true,
    });
    console.error("");
    console.log(`wrote ${r.out}: ${r.id} version ${r.version}, ${r.lots} lots, ${r.requests} requests`);
    for (const p of r.provenance)
      console.log(
        `  ${p.layer.padEnd(9)} ${String(p.kept).padStart(7)} of ${p.count} "${p.service_layer}" as at ${p.as_at ?? "unknown"}, fetched ${p.fetched_at}`,
      );
    if (publish) await publishPack(r.out, publishTarget(flags));
  } finally {
    await standin?.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  try {
    await main(process.argv.slice(2));
  } catch (e) {
    console.error(e instanceof Error ? `${e.name}: ${e.message}` : String(e));
    process.exitCode = 1;
  }
}
