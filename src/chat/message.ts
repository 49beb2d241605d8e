// The chat answer's message type, with its typed data parts: from type-only modules, so the web's useChat imports it too.
import type { UIMessage, UIMessageChunk } from "ai";
import type { BBox } from "../geo/bbox.ts";
import type { LimitNotice } from "./budget.ts";
import type { FeatureCollection } from "./tools/map.ts";

/** The typed parts a map client receives besides text and tools. */
export type ChatDataParts = {
  bbox: { bbox: BBox; label: string };
  parcels: FeatureCollection;
  overlays: FeatureCollection;
  session: { session_id: string };
  credits: { action: "chat"; charged: number; balance: number };
  limit: LimitNotice;
};
export type ChatUIMessage = UIMessage<never, ChatDataParts>;
export type ChatChunk = UIMessageChunk<never, ChatDataParts>;
