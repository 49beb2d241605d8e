// Raised for any pack file that cannot be trusted; the message says exactly what was wrong.
export class PackFormatError extends Error {
  override name = "PackFormatError";
}
