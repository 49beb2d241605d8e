// Browser tests need a Chromium and the whole dev stack: start it once, or say clearly why the tests are skipped.
import type { TestProject } from "vitest/node";
import { findChromium } from "../../scripts/dev/chromium.ts";
import { startStack } from "../../scripts/dev/scratch-stack.ts";

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const chromium = findChromium();
  project.provide("chromiumPath", chromium ?? "");
  if (!chromium) {
    console.warn(
      "\n*** Browser tests SKIPPED: no Chromium found (install it with `apt-get install -y chromium`, or set CHROMIUM_PATH). ***\n",
    );
    project.provide("baseUrl", "");
    project.provide("worldPath", "");
    return undefined;
  }
  const stack = await startStack();
  console.log(`browser tests: dev stack at ${stack.url}, Chromium ${chromium}`);
  project.provide("baseUrl", stack.url);
  project.provide("worldPath", stack.worldPath);
  return () => stack.stop();
}

declare module "vitest" {
  export interface ProvidedContext {
    chromiumPath: string;
    baseUrl: string;
    // The small world the stack was started with: the tests read their lots and places from it.
    worldPath: string;
  }
}
