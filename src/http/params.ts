// Path identifiers are UUIDs; a malformed one is a 400 that names the parameter (docs/design.md section 5).
import { InvalidRequestError } from "../errors.ts";
import { isUuid } from "../lib/uuid.ts";

export function uuidParam(value: string, param: string): string {
  if (!isUuid(value)) throw new InvalidRequestError(`Invalid ${param} format`);
  return value.toLowerCase();
}
