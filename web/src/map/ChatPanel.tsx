// The chat: useChat over the service's UI message stream; map parts move and draw on the map. A scoring call that
// charges asks first (docs/design.md section 5): the panel shows its sites and cost with Approve / Decline.
import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses } from "ai";
import { type FormEvent, useEffect, useMemo, useRef, useState } from "react";
import { UNIT_PRICE } from "../../../src/credits/prices.ts";
import { type Api, type Balance, type ChatRequest, type ChatUIMessage, Problem, problemOf } from "../api.ts";
import type { MapController } from "./controller.ts";

type Props = {
  api: Api;
  map: () => MapController | null;
  visibleLayers: () => string[];
  onBalance: (b: number) => void;
  onProblem: (p: unknown) => void;
};

type Part = ChatUIMessage["parts"][number];
type ApprovalData = Extract<Part, { type: "data-approval" }>["data"];

const TOOL_LABELS: Record<string, string> = {
  geocode_suburb: "Found the suburb",
  find_parcels: "Searched parcels",
  find_assemblies: "Combined adjoining lots",
  lookup_lot: "Looked up the lot",
  describe_parcel: "Read the lot's planning controls",
  score_sites: "Scored sites",
  summarise_area: "Summarised the area",
};

const credits = (n: number) => `${n.toFixed(2)} credit${n === 1 ? "" : "s"}`;

/** The person's answer to an approval waiting in the last assistant message, if they just gave one. */
function answeredApproval(messages: ChatUIMessage[]): { id: string; approved: boolean } | null {
  const last = messages.at(-1);
  if (last?.role !== "assistant") return null;
  for (const p of last.parts)
    if ("state" in p && p.state === "approval-responded" && "approval" in p && p.approval)
      return { id: p.approval.id, approved: p.approval.approved === true };
  return null;
}

function ApprovalRequest({ data, onAnswer }: { data: ApprovalData; onAnswer: (approved: boolean) => void }) {
  const shown = data.sites.slice(0, 5);
  return (
    <fieldset className="approval" aria-label="Approve scoring" style={{ border: 0, margin: 0, padding: 0 }}>
      <p>
        Score {data.units} site{data.units === 1 ? "" : "s"} for <strong>{credits(data.cost)}</strong>?
      </p>
      <ul className="muted small">
        {shown.map((s) => (
          <li key={s.lot_id ?? s.address ?? String(s.area_m2)}>
            {s.lot_id ?? "a lot"}
            {s.address ? `, ${s.address}` : ""} ({Math.round(s.area_m2).toLocaleString("en-AU")} m²)
          </li>
        ))}
        {data.sites.length > shown.length && <li>and {data.sites.length - shown.length} more</li>}
      </ul>
      <div className="actions">
        <button type="button" className="primary" onClick={() => onAnswer(true)}>
          Approve
        </button>
        <button type="button" onClick={() => onAnswer(false)}>
          Decline
        </button>
      </div>
    </fieldset>
  );
}

export function ChatPanel({ api, map, visibleLayers, onBalance, onProblem }: Props) {
  const session = useRef<string | null>(null);
  const props = useRef({ map, visibleLayers, onBalance, onProblem });
  props.current = { map, visibleLayers, onBalance, onProblem };
  const transport = useMemo(
    () =>
      new DefaultChatTransport<ChatUIMessage>({
        api: "/chat",
        // The service takes one question (or one approval's answer) at a time; the session keeps the conversation.
        prepareSendMessagesRequest: async ({ messages }) => {
          const approval = answeredApproval(messages);
          if (approval)
            return {
              body: { session_id: session.current, approval } satisfies ChatRequest,
              headers: await api.headers(),
            };
          const last = messages.at(-1);
          const question = last?.parts.map((p) => (p.type === "text" ? p.text : "")).join("") ?? "";
          const viewport = props.current.map()?.viewport();
          return {
            body: {
              question,
              session_id: session.current,
              viewport_bbox: viewport ?? null,
              visible_layers: props.current.visibleLayers(),
            } satisfies ChatRequest,
            headers: await api.headers(),
          };
        },
        fetch: async (input, init) => {
          const res = await fetch(input, init);
          if (!res.ok) {
            const problem = problemOf(
              res.status,
              await res
                .clone()
                .json()
                .catch(() => null),
            );
            props.current.onProblem(problem);
            throw problem;
          }
          const sid = res.headers.get("X-Session-Id");
          if (sid) session.current = sid;
          return res;
        },
      }),
    [api],
  );
  // The header shows what the API says once a turn ends: scoring and refunds settle beside the question's charge.
  const rereadBalance = () => {
    api.get<Balance>("/billing/credits/balance").then(
      (b) => props.current.onBalance(b.balance),
      () => {},
    );
  };
  const { messages, sendMessage, status, error, addToolApprovalResponse } = useChat<ChatUIMessage>({
    transport,
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
    onData: (part) => {
      const m = props.current.map();
      if (part.type === "data-session") session.current = part.data.session_id;
      else if (part.type === "data-credits") props.current.onBalance(part.data.balance);
      else if (part.type === "data-bbox") m?.fitBounds(part.data.bbox, 16);
      else if (part.type === "data-parcels" || part.type === "data-overlays") m?.setHighlight(part.data);
    },
    onFinish: rereadBalance,
    // HTTP refusals were already reported as sentences by the transport; others are shown in the panel.
    onError: rereadBalance,
  });
  const [text, setText] = useState("");
  const busy = status === "submitted" || status === "streaming";
  const end = useRef<HTMLDivElement>(null);
  // The newest words stay in view as they stream in.
  useEffect(() => {
    if (messages.length > 0 || status === "submitted") end.current?.scrollIntoView({ block: "end" });
  }, [messages, status]);

  function submit(e: FormEvent) {
    e.preventDefault();
    const q = text.trim();
    if (!q || busy) return;
    setText("");
    void sendMessage({ text: q });
  }

  function renderPart(m: ChatUIMessage, p: Part, key: string) {
    if (p.type === "text") return <p key={key}>{p.text}</p>;
    // A bound of the question stopped some work: say which, in the service's words.
    if (p.type === "data-limit")
      return (
        <p key={key} className="limit" role="note">
          {p.data.detail}
        </p>
      );
    if (!p.type.startsWith("tool-") || !("state" in p)) return null;
    const name = p.type.slice(5);
    if (p.state === "approval-requested" && "approval" in p && p.approval) {
      const approvalId = p.approval.id;
      const data = m.parts.find(
        (x): x is Extract<Part, { type: "data-approval" }> => x.type === "data-approval" && x.data.id === approvalId,
      )?.data;
      if (data)
        return (
          <ApprovalRequest
            key={key}
            data={data}
            onAnswer={(approved) => void addToolApprovalResponse({ id: approvalId, approved })}
          />
        );
    }
    if (p.state === "output-denied" || (p.state === "approval-responded" && p.approval?.approved === false))
      return (
        <p key={key} className="tool">
          Scoring declined: nothing charged
        </p>
      );
    if (p.state === "approval-responded")
      return (
        <p key={key} className="tool">
          Scoring approved…
        </p>
      );
    return (
      <p key={key} className="tool">
        {TOOL_LABELS[name] ?? name}
      </p>
    );
  }

  return (
    <section className="chat" aria-label="Chat">
      <ol className="messages" aria-live="polite">
        {messages.length === 0 && (
          <li className="placeholder">
            Ask about the map: “Show me R2 lots over 600 m2 in Epping without flood”, “What is near Parramatta?”, “Score
            the parcels in view”. {UNIT_PRICE.chat} credit a question; scoring asks before it charges.
          </li>
        )}
        {messages.map((m) => (
          <li key={m.id} className={`msg msg-${m.role}`}>
            {m.parts.map((p, i) => renderPart(m, p, `${m.id}-${i}`))}
          </li>
        ))}
        {status === "submitted" && <li className="msg msg-assistant placeholder">Thinking…</li>}
        {error && !(error instanceof Problem) && (
          <li className="msg msg-error" role="alert">
            The answer was interrupted ({error.message}). Ask again in a moment.
          </li>
        )}
      </ol>
      <form className="ask" onSubmit={submit}>
        <input
          aria-label="Ask"
          placeholder="Ask about sites, zoning, hazards…"
          value={text}
          maxLength={2000}
          onChange={(e) => setText(e.target.value)}
        />
        <button type="submit" className="primary" disabled={busy || text.trim() === ""}>
          Send
        </button>
      </form>
      {/* After the pinned input: scrolling here shows the newest words above it, not under it. */}
      <div ref={end} />
    </section>
  );
}
