// The alert types of architecture section 12, each with what it watches in a person's words.
import { NotFoundError } from "../errors.ts";

export const ALERT_TYPES = [
  { alert_type: "zoning_change", description: "The zone of the site, or of a lot in the area, changes" },
  {
    alert_type: "control_change",
    description: "A planning control changes: floor space ratio, height of building or minimum lot size",
  },
  {
    alert_type: "overlay_change",
    description: "A flood, bushfire or heritage overlay is added to, removed from or changed on the land",
  },
  { alert_type: "lot_change", description: "The lot is subdivided, merged with another or removed" },
  {
    alert_type: "search_match",
    description: "A saved site search finds new matches after the planning data is updated",
  },
] as const;

export type AlertType = (typeof ALERT_TYPES)[number]["alert_type"];

const NAMES: ReadonlySet<string> = new Set(ALERT_TYPES.map((t) => t.alert_type));

/** The type by name; an unknown one is the specification's 404 row, word for word. */
export function alertType(name: string): AlertType {
  if (!NAMES.has(name)) throw new NotFoundError(`Alert type not found: ${name}`);
  return name as AlertType;
}
