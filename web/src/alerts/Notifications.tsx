// The header's notifications button: the unread count (polled every 20 s and when the page is back in view),
// and the list, newest first; opening one marks it read and takes the map to its lot.
import { useCallback, useEffect, useRef, useState } from "react";
import type { Api } from "../api.ts";
import { shortDate } from "../map/recent.ts";
import { type Alert, listAlerts, markRead, notifications } from "./api.ts";
import "./alerts.css";
import { alertPlace, badgeText, describeChange, notificationsName, typeLabel } from "./describe.ts";
import { groupByChange, type NotificationGroup } from "./group.ts";
import { requestFlight } from "./flight.ts";
import { notificationsLinkOf } from "./link.ts";
import { sentenceOf } from "./store.ts";

// A publish shows within this: the queue hands the consumer each message at once (README, Publishing a pack).
const POLL_MS = 20_000;

type Props = {
  api: Api;
  onProblem: (p: unknown) => void;
  /** Switches to the map view (from Account or Data) before it flies. */
  showMap: () => void;
};

export function Notifications({ api, onProblem, showMap }: Props) {
  const [unread, setUnread] = useState(0);
  const [open, setOpen] = useState(false);
  const [list, setList] = useState<NotificationGroup[] | null>(null);
  // The organisation's alerts by id, to name those a change was heard under; unknown ids are named by type alone.
  const [alertNames, setAlertNames] = useState<ReadonlyMap<string, string>>(new Map());
  const [problem, setProblem] = useState<string | null>(null);
  const box = useRef<HTMLDivElement>(null);

  const count = useCallback(() => {
    // A failed count keeps the last one: the next poll tries again, and a lapsed session is the page's to say.
    notifications(api, true).then(
      (n) => setUnread(n.unread_count),
      (err: unknown) => sentenceOf(err, onProblem, ""),
    );
  }, [api, onProblem]);

  useEffect(() => {
    count();
    const t = setInterval(count, POLL_MS);
    const seen = () => {
      if (document.visibilityState === "visible") count();
    };
    addEventListener("focus", count);
    document.addEventListener("visibilitychange", seen);
    return () => {
      clearInterval(t);
      removeEventListener("focus", count);
      document.removeEventListener("visibilitychange", seen);
    };
  }, [count]);

  const load = useCallback(() => {
    setProblem(null);
    listAlerts(api).then(
      (all: Alert[]) =>
        setAlertNames(new Map(all.map((a) => [a.id, `${typeLabel(a.alert_type)} on ${alertPlace(a.target)}`]))),
      () => {},
    );
    notifications(api).then(
      (n) => {
        setList(groupByChange(n.notifications));
        setUnread(n.unread_count);
      },
      (err: unknown) =>
        setProblem(sentenceOf(err, onProblem, "The notifications could not be read. Please try again.")),
    );
  }, [api, onProblem]);

  // An e-mail's link (/map?notifications=<alert id>) opens the list once; the address drops it so a reload does not.
  useEffect(() => {
    const link = notificationsLinkOf(location.search);
    if (!link.open) return;
    history.replaceState(history.state, "", `${location.pathname}${link.rest}${location.hash}`);
    load();
    setOpen(true);
  }, [load]);

  // Closes on Escape and on a click outside it, as a menu does.
  useEffect(() => {
    if (!open) return;
    const key = (e: KeyboardEvent) => {
      if (e.key === "Escape") setOpen(false);
    };
    const click = (e: MouseEvent) => {
      if (box.current && !box.current.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("keydown", key);
    document.addEventListener("mousedown", click);
    return () => {
      document.removeEventListener("keydown", key);
      document.removeEventListener("mousedown", click);
    };
  }, [open]);

  // Opening a change reads it under every alert it was heard under.
  function choose(g: NotificationGroup) {
    const d = describeChange(g.first.change, g.first.alert_type);
    const unreadHere = g.members.filter((m) => !m.read);
    if (unreadHere.length > 0) {
      setList(
        (l) =>
          l?.map((x) => (x === g ? { ...x, read: true, members: x.members.map((m) => ({ ...m, read: true })) } : x)) ??
          null,
      );
      setUnread((u) => Math.max(0, u - unreadHere.length));
      Promise.all(unreadHere.map((m) => markRead(api, m.id))).then(count, (err: unknown) =>
        setProblem(sentenceOf(err, onProblem, "The notification could not be marked read. Please try again.")),
      );
    }
    if (d.target) {
      setOpen(false);
      showMap();
      requestFlight(d.target);
    }
  }

  return (
    <div className="notif" ref={box}>
      <button
        type="button"
        className="notif-button"
        data-testid="notifications-button"
        aria-label={notificationsName(unread)}
        aria-expanded={open}
        aria-controls="notifications-panel"
        onClick={() => {
          if (!open) load();
          setOpen(!open);
        }}
      >
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
          <path
            fill="currentColor"
            d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2Z"
          />
        </svg>
        {unread > 0 && (
          <span className="notif-count" aria-hidden="true">
            {badgeText(unread)}
          </span>
        )}
      </button>
      {open && (
        <section id="notifications-panel" className="notif-panel" aria-label="Notifications">
          <h2>Notifications</h2>
          {problem && (
            <p className="error-text small" role="alert">
              {problem}
            </p>
          )}
          {list === null ? (
            !problem && (
              <p className="muted small" role="status">
                Loading notifications…
              </p>
            )
          ) : list.length === 0 ? (
            <p className="muted">
              No notifications yet. When new planning data changes a saved site or an area you watch, it is listed here.
            </p>
          ) : (
            <ul className="notif-list">
              {list.map((g) => {
                const n = g.first;
                const d = describeChange(n.change, n.alert_type);
                const under = g.members.map((m) => alertNames.get(m.alert_id) ?? typeLabel(m.alert_type));
                return (
                  <li key={n.id}>
                    <button
                      type="button"
                      className={g.read ? "notif-item" : "notif-item unread"}
                      onClick={() => choose(g)}
                    >
                      <span className="notif-what">
                        {!g.read && <span className="sr-only">Unread: </span>}
                        <strong>{d.what}</strong>
                        {d.values && <span> {d.values}</span>}
                      </span>
                      <span className="notif-where">{d.where}</span>
                      {g.members.length > 1 && (
                        <span className="small">{`Under ${g.members.length} alerts: ${under.join("; ")}`}</span>
                      )}
                      <span className="muted small">
                        {d.versions ? `${d.versions} · ` : ""}
                        <time dateTime={n.created_at}>{shortDate(n.created_at)}</time>
                      </span>
                    </button>
                  </li>
                );
              })}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}
