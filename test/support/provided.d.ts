import "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    dbWsProxy: string;
    authUrl: string;
    marketingUrl: string;
    /** Base URL of the local stand-ins' control endpoints (recorded calls, failure switches). */
    controlUrl: string;
    /** Committed demo packs by file name, base64. */
    demoPacks: Record<string, string>;
  }
}
