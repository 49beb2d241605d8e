// Where a Chromium is on this machine, for the browser tests and the glyph builder (CHROMIUM_PATH first).
import { existsSync } from "node:fs";

const CHROMIUM_PATHS = [
  process.env.CHROMIUM_PATH,
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
];

export function findChromium(): string | undefined {
  return CHROMIUM_PATHS.find((p): p is string => typeof p === "string" && existsSync(p));
}
