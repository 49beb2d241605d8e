// The typed parts of POST /chat's UI message stream beside text and tools: the map's boxes and features, the session,
// the charge, a bound that stopped work and an approval request. The AI SDK carries them, so they are types, not zod.
import type { UIMessage, UIMessageChunk } from "ai";
import type { AreaGeometry, BBox } from "./geometry.ts";

export type PointGeometry = { type: "Point"; coordinates: number[] };

/** A feature the map highlights: a lot, an overlay's part or a stop. */
export interface Feature {
  type: "Feature";
  id?: string;
  geometry: AreaGeometry | PointGeometry;
  properties: Record<string, unknown>;
}

export interface FeatureCollection {
  type: "FeatureCollection";
  features: Feature[];
}

/** A bound of one question (chat/budget.ts QUESTION_BOUNDS) that stopped work. */
export type Bound = "tool_steps" | "tool_calls" | "sites" | "map_data";

/** Streamed as a `data-limit` part the first time a bound stops work. */
export interface LimitNotice {
  bound: Bound;
  detail: string;
}

/** A scoring call waiting for the person's approval: the sites new to the question and what they cost. */
export interface ApprovalRequestPart {
  /** The approval id to answer with. */
  id: string;
  tool_call_id: string;
  units: number;
  cost: number;
  sites: { lot_id: string | null; address: string | null; area_m2: number }[];
}

/** The typed parts a map client receives besides text and tools. */
export type ChatDataParts = {
  bbox: { bbox: BBox; label: string };
  parcels: FeatureCollection;
  overlays: FeatureCollection;
  session: { session_id: string };
  credits: { action: "chat"; charged: number; balance: number };
  limit: LimitNotice;
  /** A scoring call waiting for the person: the sites and the cost; answer with POST /chat {session_id, approval}. */
  approval: ApprovalRequestPart;
};
export type ChatUIMessage = UIMessage<never, ChatDataParts>;
export type ChatChunk = UIMessageChunk<never, ChatDataParts>;
