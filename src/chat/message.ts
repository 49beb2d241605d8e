// The chat answer's message type, with its typed data parts: from type-only modules, so the web's useChat imports it too.
import type { UIMessage, UIMessageChunk } from "ai";
import type { BBox } from "../geo/bbox.ts";
import type { LimitNotice } from "./budget.ts";
import type { FeatureCollection } from "./tools/map.ts";

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
