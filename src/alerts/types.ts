// An alert type by name, checked against the list the API publishes (routes/schemas/alert-types.ts).
import { NotFoundError } from "../errors.ts";
import { ALERT_TYPES } from "../routes/schemas/alert-types.ts";

export type AlertType = (typeof ALERT_TYPES)[number]["alert_type"];

const NAMES: ReadonlySet<string> = new Set(ALERT_TYPES.map((t) => t.alert_type));

/** The type by name; an unknown one is the specification's 404 row, word for word. */
export function alertType(name: string): AlertType {
  if (!NAMES.has(name)) throw new NotFoundError(`Alert type not found: ${name}`);
  return name as AlertType;
}
