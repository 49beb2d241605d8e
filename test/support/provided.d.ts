import "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    dbWsProxy: string;
    /** GET `?application=<application_name>`: connections and statements that reached Postgres under that name. */
    statementCountsUrl: string;
    authUrl: string;
    marketingUrl: string;
    /** Base URL of the local stand-ins' control endpoints (recorded calls, failure switches). */
    controlUrl: string;
    /** The local payment processor (Stripe REST subset); its control endpoints live under /__control. */
    processorUrl: string;
    /** OpenAI-compatible base URL of the local model server (ends in /v1). */
    llmUrl: string;
    /** Base URL of the model server's control endpoints (scripted turns, recorded requests). */
    llmControlUrl: string;
    /** Port of a local TCP server that accepts connections and never answers (a slow dependency). */
    tarpitPort: number;
    /** GET: the 50,000-lot test world's pack (test/support/world-setup.ts), built or found in the cache on first use. */
    testWorldUrl: string;
    /** Committed demo packs by file name, base64. */
    demoPacks: Record<string, string>;
    /** Upload fixtures (test/support/upload-setup.ts): real suburbs as WGS84 GeoJSON, in MGA zone 56 as GeoJSON and zipped Shapefile (base64), 50 grid lots. */
    uploadFixtures: {
      wgs84: string;
      geojsonMga56: string;
      shapefileMga56: string;
      shapefileNoPrj: string;
      lots: string;
    };
  }
}
