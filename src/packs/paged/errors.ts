// Refusals of a v2 pack, each a sentence naming the pack, the page and what was wrong; each is a 503 naming the pack.
import { UnavailableError } from "../../errors.ts";

/** The pack id an object key carries (`public/sydney-demo@v3.pack`, `orgs/<org>/<id>.pack`): what a refusal names. */
export function packIdOf(key: string): string {
  const name = key.slice(key.lastIndexOf("/") + 1).replace(/\.(pack|gapk)$/, "");
  const at = name.lastIndexOf("@");
  return at > 0 ? name.slice(0, at) : name;
}

/** A pack that cannot be read as it claims: the client is told which pack (by id) and why; never a 500. */
export class PagedPackError extends UnavailableError {
  // The object key and the pack id it names.
  readonly key: string;
  readonly pack: string;
  constructor(key: string, message: string) {
    const pack = packIdOf(key);
    super(`pack ${pack}`, { message, detail: `Pack ${pack} unavailable: ${message}` });
    this.key = key;
    this.pack = pack;
  }
}

/** One page failed its checksum or structure check: that page is refused, the rest of the pack still serves. */
export class PageRefusedError extends PagedPackError {
  readonly page: number;
  constructor(key: string, message: string, page: number) {
    super(key, message);
    this.page = page;
  }
}

/** The object changed under a reader (a new etag): the caller re-reads the root, never mixing versions. */
export class EtagMismatchError extends PagedPackError {}

export class PackNotFoundError extends PagedPackError {}
