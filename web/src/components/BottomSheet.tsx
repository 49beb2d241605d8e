// On a phone the workspace's panels sit in a sheet over the map: a peek (a panel's title and main action), half the
// screen, or all of it; dragged by its handle, or stepped with the handle as a button and with the arrow keys.
import { type KeyboardEvent, type PointerEvent, type ReactNode, useLayoutEffect, useRef, useState } from "react";

export type Snap = "peek" | "half" | "full";
const SNAPS: Snap[] = ["peek", "half", "full"];
/** The peek's height: the handle, the tabs, a panel's title and its main action (styles.css places the map above it). */
export const PEEK_PX = 212;
/** Movement under this is a tap on the handle, not a drag. */
const DRAG_PX = 6;

const SAYS: Record<Snap, string> = {
  peek: "The panel shows a peek. Press to show half the screen; arrow keys change its size.",
  half: "The panel fills half the screen. Press to fill the screen; arrow keys change its size.",
  full: "The panel fills the screen. Press to show only a peek; arrow keys change its size.",
};

/** The sheet's height at a snap point, given the room its parent has. */
export function snapHeight(snap: Snap, room: number): number {
  if (snap === "peek") return Math.min(PEEK_PX, room);
  if (snap === "half") return Math.round(room * 0.55);
  return room;
}

/** The snap point nearest a height the sheet was dragged to. */
export function nearestSnap(height: number, room: number): Snap {
  let best: Snap = "peek";
  for (const s of SNAPS)
    if (Math.abs(snapHeight(s, room) - height) < Math.abs(snapHeight(best, room) - height)) best = s;
  return best;
}

type Props = {
  /** Off (a wider screen): the panels are a plain side column, as they always were there. */
  enabled: boolean;
  snap: Snap;
  onSnap: (s: Snap) => void;
  children: ReactNode;
};

export function BottomSheet({ enabled, snap, onSnap, children }: Props) {
  const ref = useRef<HTMLElement>(null);
  const [room, setRoom] = useState(0);
  const [dragged, setDragged] = useState<number | null>(null);
  const drag = useRef<{ y: number; h: number; moved: boolean } | null>(null);
  // A drag ends with a click on the handle too: that click must not also step the size.
  const swallowClick = useRef(false);

  useLayoutEffect(() => {
    const parent = ref.current?.parentElement;
    if (!enabled || !parent) return;
    const measure = () => setRoom(parent.clientHeight);
    const ro = new ResizeObserver(measure);
    ro.observe(parent);
    measure();
    return () => ro.disconnect();
  }, [enabled]);

  if (!enabled) return <aside className="side">{children}</aside>;

  const heightAt = (y: number) => {
    const d = drag.current;
    return d ? Math.max(48, Math.min(room, d.h + d.y - y)) : 0;
  };
  const onPointerDown = (e: PointerEvent<HTMLButtonElement>) => {
    if (e.button !== 0) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { y: e.clientY, h: ref.current?.getBoundingClientRect().height ?? 0, moved: false };
  };
  const onPointerMove = (e: PointerEvent<HTMLButtonElement>) => {
    const d = drag.current;
    if (!d || (!d.moved && Math.abs(d.y - e.clientY) < DRAG_PX)) return;
    d.moved = true;
    setDragged(heightAt(e.clientY));
  };
  const onPointerUp = (e: PointerEvent<HTMLButtonElement>) => {
    const d = drag.current;
    if (d?.moved) {
      swallowClick.current = true;
      onSnap(nearestSnap(heightAt(e.clientY), room));
    }
    drag.current = null;
    setDragged(null);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLButtonElement>) => {
    const at = SNAPS.indexOf(snap);
    const to = { ArrowUp: SNAPS[at + 1] ?? "full", ArrowDown: SNAPS[at - 1] ?? "peek", Home: "peek", End: "full" }[
      e.key
    ] as Snap | undefined;
    if (!to) return;
    e.preventDefault();
    onSnap(to);
  };
  const onClick = () => {
    if (swallowClick.current) {
      swallowClick.current = false;
      return;
    }
    onSnap(snap === "full" ? "peek" : (SNAPS[SNAPS.indexOf(snap) + 1] ?? "full"));
  };

  const height = dragged ?? (room > 0 ? snapHeight(snap, room) : undefined);
  return (
    <aside
      ref={ref}
      className={dragged === null ? "side sheet" : "side sheet dragging"}
      data-snap={snap}
      style={height === undefined ? undefined : { height }}
    >
      <button
        type="button"
        className="sheet-handle"
        aria-label="Panel size"
        aria-expanded={snap !== "peek"}
        aria-describedby="sheet-says"
        title="Drag to resize the panel, or press to change its size"
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerUp}
        onKeyDown={onKeyDown}
        onClick={onClick}
      >
        <span aria-hidden="true" className="grip" />
      </button>
      <span id="sheet-says" className="visually-hidden">
        {SAYS[snap]}
      </span>
      {children}
    </aside>
  );
}
