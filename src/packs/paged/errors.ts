// Refusals of a v2 pack, each a sentence naming the pack, the page and what was wrong.

export class PagedPackError extends Error {
  override name = "PagedPackError";
}

/** One page failed its checksum or structure check: that page is refused, the rest of the pack still serves. */
export class PageRefusedError extends PagedPackError {
  override name = "PageRefusedError";
  readonly page: number;
  constructor(message: string, page: number) {
    super(message);
    this.page = page;
  }
}

/** The object changed under a reader (a new etag): the caller re-reads the root, never mixing versions. */
export class EtagMismatchError extends PagedPackError {
  override name = "EtagMismatchError";
}

export class PackNotFoundError extends PagedPackError {
  override name = "PackNotFoundError";
}
