// The chat: useChat over the service's UI message stream; map parts move and draw on the map.
import { useChat } from "@ai-sdk/react";
import { DefaultChatTransport } from "ai";
import { type FormEvent, useMemo, useRef, useState } from "react";
import { type Api, type ChatUIMessage, Problem, problemOf } from "../api.ts";
import type { MapController } from "./controller.ts";

type Props = {
  api: Api;
  map: () => MapController | null;
  visibleLayers: () => string[];
  onBalance: (b: number) => void;
  onProblem: (p: unknown) => void;
};

const TOOL_LABELS: Record<string, string> = {
  geocode_suburb: "Found the suburb",
  find_parcels: "Searched parcels",
  lookup_lot: "Looked up the lot",
  describe_parcel: "Read the lot's planning controls",
  score_sites: "Scored sites",
  summarise_area: "Summarised the area",
};

export function ChatPanel({ api, map, visibleLayers, onBalance, onProblem }: Props) {
  const session = useRef<string | null>(null);
  const props = useRef({ map, visibleLayers, onBalance, onProblem });
  props.current = { map, visibleLayers, onBalance, onProblem };
  const transport = useMemo(
    () =>
      new DefaultChatTransport<ChatUIMessage>({
        api: "/chat",
        // The service takes one question at a time; the session keeps the conversation.
        prepareSendMessagesRequest: async ({ messages }) => {
          const last = messages.at(-1);
          const question = last?.parts.map((p) => (p.type === "text" ? p.text : "")).join("") ?? "";
          const viewport = props.current.map()?.viewport();
          return {
            body: {
              question,
              session_id: session.current,
              viewport_bbox: viewport ?? null,
              visible_layers: props.current.visibleLayers(),
            },
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
  const { messages, sendMessage, status, error } = useChat<ChatUIMessage>({
    transport,
    onData: (part) => {
      const m = props.current.map();
      if (part.type === "data-session") session.current = part.data.session_id;
      else if (part.type === "data-credits") props.current.onBalance(part.data.balance);
      else if (part.type === "data-bbox") m?.fitBounds(part.data.bbox, 16);
      else if (part.type === "data-parcels" || part.type === "data-overlays") m?.setHighlight(part.data);
    },
    // HTTP refusals were already reported as sentences by the transport; others are shown in the panel.
    onError: () => {},
  });
  const [text, setText] = useState("");
  const busy = status === "submitted" || status === "streaming";

  function submit(e: FormEvent) {
    e.preventDefault();
    const q = text.trim();
    if (!q || busy) return;
    setText("");
    void sendMessage({ text: q });
  }

  return (
    <section className="chat" aria-label="Chat">
      <ol className="messages" aria-live="polite">
        {messages.length === 0 && (
          <li className="placeholder">
            Ask about the map: “Show me R2 lots over 600 m2 in Epping without flood”, “What is near Parramatta?”, “Score
            the parcels in view”. 0.05 credit a question.
          </li>
        )}
        {messages.map((m) => (
          <li key={m.id} className={`msg msg-${m.role}`}>
            {m.parts.map((p, i) => {
              const key = `${m.id}-${i}`;
              if (p.type === "text") return <p key={key}>{p.text}</p>;
              // A bound of the question stopped some work: say which, in the service's words.
              if (p.type === "data-limit")
                return (
                  <p key={key} className="limit" role="note">
                    {p.data.detail}
                  </p>
                );
              if (p.type.startsWith("tool-")) {
                const name = p.type.slice(5);
                return (
                  <p key={key} className="tool">
                    {TOOL_LABELS[name] ?? name}
                  </p>
                );
              }
              return null;
            })}
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
    </section>
  );
}
