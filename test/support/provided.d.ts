import "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    dbWsProxy: string;
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
    /** Committed demo packs by file name, base64. */
    demoPacks: Record<string, string>;
  }
}
