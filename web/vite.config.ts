// Builds the web workspace into web/dist (served by the Worker's static assets); `npm run dev:web` serves it
// with live reload and proxies the API to the dev stack's Worker.
import { defineConfig } from "vite";

const api = process.env.API_URL ?? "http://127.0.0.1:8787";
const API_PATHS = [
  "/health",
  "/geocode",
  "/packs",
  "/tiles",
  "/parcels",
  "/batch",
  "/report",
  "/chat",
  "/billing",
  "/auth",
  "/config.json",
];

export default defineConfig({
  root: "web",
  worker: { format: "es" },
  build: { outDir: "dist", emptyOutDir: true, chunkSizeWarningLimit: 1200 },
  server: { port: 5173, proxy: Object.fromEntries(API_PATHS.map((p) => [p, { target: api, changeOrigin: false }])) },
});
