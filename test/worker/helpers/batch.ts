// Uploads a CSV to POST /batch/upload through the real app, as a browser form would.
import { SELF } from "cloudflare:test";

export interface UploadOptions {
  name?: string;
  packId?: string;
  key?: string;
  type?: string;
}

export function upload(token: string, file: string | Uint8Array, opts: UploadOptions = {}): Promise<Response> {
  const form = new FormData();
  form.set("file", new File([file], opts.name ?? "sites.csv", { type: opts.type ?? "text/csv" }));
  if (opts.packId !== undefined) form.set("pack_id", opts.packId);
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  if (opts.key) headers["Idempotency-Key"] = opts.key;
  return SELF.fetch("https://api.test/batch/upload", { method: "POST", body: form, headers });
}
