// Path identifiers are UUIDs; a malformed one is a 400 that names the parameter (architecture section 5).
import { errors } from "../http/errors.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function requireUuid(value: string, param: string): string {
  if (!UUID.test(value)) throw errors.invalidIdFormat(param);
  return value.toLowerCase();
}
