// What the shell hands every view, apart from App.tsx so views import it without importing the app back.
import type { BBox } from "./map/controller.ts";
import type { MapPack } from "./map/packs.ts";
import type { PostSignup } from "./api.ts";
import type { Auth } from "./session.ts";

export type View = "map" | "account" | "data";

/** Where the map should go when it next opens: a pack's box, and its layer to switch on. */
export type MapFocus = { bbox: BBox; layer: string };

export type Shell = {
  auth: Auth;
  /** Null while post-signup answers: the map does not wait for it (issue 51, item 7), the account and data views do. */
  membership: PostSignup | null;
  /** The signed-in user's id: the team page marks and locks their own row. */
  userId: string;
  balance: number | null;
  setBalance: (b: number) => void;
  refreshBalance: () => void;
  report: (p: unknown) => void;
  /** The map's packs with their TileJSON, requested as soon as there is a session. */
  packs: Promise<MapPack[]>;
  /** Reads the pack list again (after an upload or a delete): the map and the Data page follow. */
  reloadPacks: () => void;
  /** Opens the map on a pack ("Show on map"). */
  showOnMap: (focus: MapFocus) => void;
  /** The focus the map takes when it opens, then clears. */
  focus: MapFocus | null;
  clearFocus: () => void;
};

/** The shell once the user's organisation is known: what the account and data views need. */
export type JoinedShell = Shell & { membership: PostSignup };
