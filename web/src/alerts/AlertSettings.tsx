// The alerts on one target (a saved site or a suburb): those set, each deletable, and a form to add one.
import { useId, useState } from "react";
import type { Api } from "../api.ts";
import type { Alert, AlertTarget, AlertTypeInfo, Channel } from "./api.ts";
import { channelsLabel, typeLabel } from "./describe.ts";
import { addAlert, dropAlert, sentenceOf } from "./store.ts";

type Props = {
  api: Api;
  /** What is watched, in words: "6//DP1813990", "Parramatta". */
  name: string;
  target: AlertTarget;
  /** The alerts already on this target. */
  alerts: Alert[];
  /** The types a saved site or an area can watch (GET /alerts/types, less search_match). */
  types: AlertTypeInfo[];
  /** The form behind "Add an alert" (a list of saved sites stays short), else shown at once. */
  folded?: boolean;
  onProblem: (p: unknown) => void;
};

export function AlertSettings({ api, name, target, alerts, types, folded = false, onProblem }: Props) {
  const id = useId();
  const free = types.filter((t) => !alerts.some((a) => a.alert_type === t.alert_type));
  const [chosen, setChosen] = useState<string | null>(null);
  const type = free.find((t) => t.alert_type === chosen) ?? free[0];
  const [channels, setChannels] = useState<Channel[]>(["in_app"]);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function run(work: () => Promise<void>, fallback: string) {
    setBusy(true);
    setProblem(null);
    try {
      await work();
      setChosen(null);
    } catch (err) {
      setProblem(sentenceOf(err, onProblem, fallback));
    } finally {
      setBusy(false);
    }
  }

  const toggle = (c: Channel, on: boolean) =>
    setChannels((now) => (on ? [...new Set([...now, c])] : now.filter((x) => x !== c)));

  const form = (type: AlertTypeInfo) => (
    <form
      className="alert-form"
      aria-label={`New alert on ${name}`}
      onSubmit={(e) => {
        e.preventDefault();
        void run(
          () => addAlert(api, type.alert_type, target, channels),
          "The alert could not be set. Please try again.",
        );
      }}
    >
      <label htmlFor={`${id}-type`}>Alert me to</label>
      <select id={`${id}-type`} value={type.alert_type} onChange={(e) => setChosen(e.target.value)}>
        {free.map((t) => (
          <option key={t.alert_type} value={t.alert_type}>
            {typeLabel(t.alert_type)}
          </option>
        ))}
      </select>
      <p className="muted small alert-desc">{type.description}.</p>
      <fieldset className="channels">
        <legend className="sr-only">Tell me</legend>
        <label className="toggle">
          <input
            type="checkbox"
            checked={channels.includes("in_app")}
            onChange={(e) => toggle("in_app", e.target.checked)}
          />
          In-app
        </label>
        <label className="toggle">
          <input
            type="checkbox"
            checked={channels.includes("email")}
            onChange={(e) => toggle("email", e.target.checked)}
          />
          E-mail
        </label>
        <button type="submit" disabled={busy || channels.length === 0}>
          Add alert
        </button>
      </fieldset>
      {channels.length === 0 && <p className="muted small">Choose in-app, e-mail or both.</p>}
    </form>
  );

  return (
    <div className="alert-settings">
      {alerts.length > 0 && (
        <ul className="alert-list" aria-label={`Alerts on ${name}`}>
          {alerts.map((a) => (
            <li key={a.id}>
              <span>
                <strong>{typeLabel(a.alert_type)}</strong>
                <span className="muted small">
                  {" "}
                  · {channelsLabel(a.channels)}
                  {a.email_stopped && a.channels.includes("email") ? " (e-mails stopped by unsubscribe)" : ""}
                </span>
              </span>
              <button
                type="button"
                className="quiet small"
                disabled={busy}
                aria-label={`Delete the ${typeLabel(a.alert_type).toLowerCase()} alert on ${name}`}
                onClick={() =>
                  void run(() => dropAlert(api, a.id), "The alert could not be deleted. Please try again.")
                }
              >
                Delete
              </button>
            </li>
          ))}
        </ul>
      )}
      {type ? (
        folded ? (
          <details className="alert-add">
            <summary>
              Add an alert<span className="sr-only"> on {name}</span>
            </summary>
            {form(type)}
          </details>
        ) : (
          form(type)
        )
      ) : (
        types.length > 0 && <p className="muted small">Every kind of alert is set here.</p>
      )}
      {problem && (
        <p className="error-text small" role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}
