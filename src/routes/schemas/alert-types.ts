// The alert types of docs/design.md section 12 (GET /alerts/types), each with what it watches in a person's words.
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
