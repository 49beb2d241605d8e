// The search box: suburbs, street addresses and lots as you type (ARIA combobox), flying the map to the choice.
import { useEffect, useId, useRef, useState } from "react";
import type { Api, Suggestion } from "../api.ts";

export function SearchBox({
  api,
  onChoose,
  onProblem,
  place = null,
}: {
  api: Api;
  onChoose: (s: Suggestion) => void;
  onProblem: (p: unknown) => void;
  /** The suburb the map is over now: the box follows the map while the person is not typing in it. */
  place?: string | null;
}) {
  const [q, setQ] = useState("");
  const [items, setItems] = useState<Suggestion[]>([]);
  // The query that found nothing, said under the box.
  const [missed, setMissed] = useState<string | null>(null);
  const [typing, setTyping] = useState(false);
  const [active, setActive] = useState(-1);
  const [open, setOpen] = useState(false);
  const listId = useId();
  const seq = useRef(0);
  // A chosen suggestion fills the box: that is not typing, so it asks for no new suggestions.
  const chosen = useRef(false);
  // A choice stays in the box over the place it was made from and the place the map flew to; a later move lets go.
  const held = useRef<{ from: string | null; to: string | null } | null>(null);
  // Focus selects the text (typing replaces it); the click that focused must not undo the selection.
  const focusedByPointer = useRef(false);

  useEffect(() => {
    if (place === null || typing) return;
    const h = held.current;
    if (h) {
      if (place === h.from || place === h.to) return;
      if (h.to === null) {
        h.to = place;
        return;
      }
      held.current = null;
    }
    if (place === q) return;
    chosen.current = true;
    setItems([]);
    setMissed(null);
    setQ(place);
  }, [place, q, typing]);

  useEffect(() => {
    const query = q.trim();
    setMissed(null);
    if (chosen.current) {
      chosen.current = false;
      return;
    }
    if (query.length < 2) {
      setItems([]);
      return;
    }
    const mine = ++seq.current;
    const t = setTimeout(() => {
      api.get<Suggestion[]>(`/geocode/suggest?q=${encodeURIComponent(query)}&limit=8`).then((s) => {
        if (mine !== seq.current) return;
        setItems(s);
        setMissed(s.length === 0 ? query : null);
        setActive(s.length > 0 ? 0 : -1);
        setOpen(true);
      }, onProblem);
    }, 120);
    return () => clearTimeout(t);
  }, [q, api, onProblem]);

  const choose = (s: Suggestion | undefined) => {
    if (!s) return;
    // A lot's name is its street address where it has one, else its lot id: the box keeps what the person chose.
    const text = s.name;
    held.current = { from: place, to: null };
    // Only a changed text runs the query effect, which is what clears the flag.
    chosen.current = text !== q;
    setItems([]);
    setQ(text);
    setOpen(false);
    onChoose(s);
  };

  return (
    <div className="search">
      <input
        type="search"
        role="combobox"
        aria-label="Search"
        aria-expanded={open && items.length > 0}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={active >= 0 ? `${listId}-${active}` : undefined}
        placeholder="Suburb, address or lot id"
        title="A suburb (Parramatta), a street address (23 Pembroke Street, Epping) or a lot id (6//DP1813990)"
        value={q}
        onChange={(e) => setQ(e.target.value)}
        onMouseDown={(e) => {
          focusedByPointer.current = document.activeElement !== e.currentTarget;
        }}
        onMouseUp={(e) => {
          if (focusedByPointer.current) e.preventDefault();
          focusedByPointer.current = false;
        }}
        onFocus={(e) => {
          e.currentTarget.select();
          setOpen(true);
          setTyping(true);
        }}
        onBlur={() =>
          setTimeout(() => {
            setOpen(false);
            setTyping(false);
          }, 150)
        }
        onKeyDown={(e) => {
          if (e.key === "ArrowDown") setActive((a) => Math.min(items.length - 1, a + 1));
          else if (e.key === "ArrowUp") setActive((a) => Math.max(0, a - 1));
          else if (e.key === "Enter") choose(items[Math.max(0, active)]);
          else if (e.key === "Escape") setOpen(false);
          else return;
          e.preventDefault();
        }}
      />
      {missed !== null && (
        <p className="search-missed" role="status">
          Nothing matches “{missed}”. Check the spelling, or search a suburb, a street address or a lot id such as{" "}
          {"6//DP1813990"}.
        </p>
      )}
      {open && items.length > 0 && (
        <div id={listId} role="listbox" aria-label="Suggestions" className="suggestions">
          {items.map((s, i) => (
            <div
              key={`${s.kind}-${s.pack_id}-${s.lot_id ?? s.name}-${s.state ?? ""}`}
              id={`${listId}-${i}`}
              role="option"
              tabIndex={-1}
              aria-selected={i === active}
              onMouseDown={(e) => {
                e.preventDefault();
                choose(s);
              }}
            >
              <span className="kind">{s.kind === "lot" ? "Lot" : "Suburb"}</span> {s.name}
              {s.state ? <span className="muted">, {s.state}</span> : null}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
