// Puts the committed demo packs into the local R2 bucket that `wrangler dev` serves.
import { execFileSync } from "node:child_process";
import { readdirSync } from "node:fs";

const BUCKET = "geo-assess-packs";

export async function uploadDemoPacks(persistTo: string): Promise<void> {
  const files = readdirSync("packs").filter((f) => f.endsWith(".pack"));
  for (const file of files) {
    execFileSync(
      "wrangler",
      [
        "r2",
        "object",
        "put",
        `${BUCKET}/public/${file}`,
        "--file",
        `packs/${file}`,
        "--local",
        "--persist-to",
        persistTo,
        "--content-type",
        "application/octet-stream",
      ],
      { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, WRANGLER_SEND_METRICS: "false" } },
    );
  }
  console.log(`local R2: uploaded ${files.length} demo pack(s) under public/`);
}
