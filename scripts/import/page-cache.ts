// Completed pages kept on disk by their query, so an interrupted import resumes without fetching a page twice.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export class PageCache {
  private readonly dir: string | null;
  constructor(dir: string | null) {
    this.dir = dir;
    if (dir) mkdirSync(dir, { recursive: true });
  }

  // The layer's last edit is part of the key: an edited layer's pages are fetched again.
  private file(key: string): string | null {
    return this.dir ? join(this.dir, `${createHash("sha256").update(key).digest("hex").slice(0, 32)}.json`) : null;
  }

  get<T>(key: string): T | null {
    const f = this.file(key);
    if (!f || !existsSync(f)) return null;
    try {
      const v = JSON.parse(readFileSync(f, "utf8")) as { key: string; value: T };
      return v.key === key ? v.value : null;
    } catch {
      return null; // a damaged entry is fetched again
    }
  }

  put<T>(key: string, value: T): void {
    const f = this.file(key);
    if (!f) return;
    // Written whole then renamed: a kill mid-write leaves no half page to resume from.
    const tmp = `${f}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify({ key, value }));
    renameSync(tmp, f);
  }
}
