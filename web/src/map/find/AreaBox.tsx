// The search's area (ARIA combobox): a suburb from the suggestions, a council area by name, or the map's view.
import { useEffect, useId, useRef, useState } from "react";
import type { Api, Suggestion } from "../../api.ts";
import { type AreaChoice, areaLabel } from "./query.ts";

type Option = { key: string; kind: string; label: string; choice: () => AreaChoice | null };

export function AreaBox({
  api,
  area,
  view,
  onChoose,
  onProblem,
}: {
  api: Api;
  area: AreaChoice | null;
  /** The map's bounds now (null until the map is drawn). */
  view: () => AreaChoice | null;
  onChoose: (a: AreaChoice) => void;
  onProblem: (p: unknown) => void;
}) {
  const [q, setQ] = useState(area ? areaLabel(area) : "");
  const [suburbs, setSuburbs] = useState<Suggestion[]>([]);
  const [active, setActive] = useState(-1);
  const [open, setOpen] = useState(false);
  const listId = useId();
  const typed = useRef(false);

  // The box shows the chosen area whenever it changes from outside (a link, the map's view).
  useEffect(() => {
    typed.current = false;
    setQ(area ? areaLabel(area) : "");
  }, [area]);

  useEffect(() => {
    const query = q.trim();
    if (!typed.current || query.length < 2) {
      setSuburbs([]);
      return;
    }
    let live = true;
    const t = setTimeout(() => {
      api.get<Suggestion[]>(`/geocode/suggest?q=${encodeURIComponent(query)}&limit=6`).then((s) => {
        if (!live) return;
        const only = s.filter((x, i) => x.kind === "suburb" && s.findIndex((y) => y.name === x.name) === i);
        setSuburbs(only);
        setActive(only.length > 0 ? 0 : -1);
      }, onProblem);
    }, 150);
    return () => {
      live = false;
      clearTimeout(t);
    };
  }, [q, api, onProblem]);

  const typedName = q.trim();
  const options: Option[] = [
    ...suburbs.map((s) => ({
      key: `suburb-${s.name}`,
      kind: "Suburb",
      label: s.name + (s.state ? `, ${s.state}` : ""),
      choice: (): AreaChoice => ({ kind: "suburb", name: s.name }),
    })),
    ...(typed.current && typedName.length >= 2
      ? [
          {
            key: "lga",
            kind: "Council",
            label: `${typedName} (council area)`,
            choice: (): AreaChoice => ({ kind: "lga", name: typedName }),
          },
        ]
      : []),
    { key: "view", kind: "Map", label: "The map's view", choice: view },
  ];

  const choose = (o: Option | undefined) => {
    // Enter on text no suggestion matched: search it as a suburb, so the service says whether it knows it.
    const a = o ? o.choice() : typedName ? ({ kind: "suburb", name: typedName } as const) : null;
    if (!a) return;
    setOpen(false);
    setSuburbs([]);
    typed.current = false;
    setQ(areaLabel(a));
    onChoose(a);
  };

  return (
    <div className="search area-box">
      <input
        type="search"
        role="combobox"
        aria-label="Area"
        aria-expanded={open}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={open && active >= 0 ? `${listId}-${active}` : undefined}
        placeholder="A suburb, a council area, or the map's view"
        value={q}
        onChange={(e) => {
          typed.current = true;
          setQ(e.target.value);
          // Until this text's suggestions come, Enter means the text itself, not an older suggestion.
          setActive(-1);
          setOpen(true);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => setTimeout(() => setOpen(false), 150)}
        onKeyDown={(e) => {
          if (e.key === "ArrowDown") {
            setOpen(true);
            setActive((a) => Math.min(options.length - 1, a + 1));
          } else if (e.key === "ArrowUp") setActive((a) => Math.max(0, a - 1));
          else if (e.key === "Enter") choose(open && active >= 0 ? options[active] : undefined);
          else if (e.key === "Escape") setOpen(false);
          else return;
          e.preventDefault();
        }}
      />
      {open && (
        <div id={listId} role="listbox" aria-label="Areas" className="suggestions">
          {options.map((o, i) => (
            <div
              key={o.key}
              id={`${listId}-${i}`}
              role="option"
              tabIndex={-1}
              aria-selected={i === active}
              onMouseDown={(e) => {
                e.preventDefault();
                choose(o);
              }}
            >
              <span className="kind">{o.kind}</span> {o.label}
            </div>
          ))}
        </div>
      )}
    </div>
  );
}
