// The neon driver pointed at the local WebSocket bridge: apart from client.ts so Node scripts (dev, load, bench,
// migrations) can import it without pg-cloudflare, whose default export in Node is an empty stub.
import { neonConfig } from "@neondatabase/serverless";

/** Points the neon driver at a local WebSocket-to-TCP bridge (plain ws, no TLS pipelining); never for Neon itself. */
export function useLocalProxy(proxy: string): void {
  neonConfig.wsProxy = (host, port) => `${proxy}/v2?address=${host}:${port}`;
  neonConfig.useSecureWebSocket = false;
  neonConfig.pipelineTLS = false;
  neonConfig.pipelineConnect = false;
}
