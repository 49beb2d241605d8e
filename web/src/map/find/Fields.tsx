// The Find sites form's inputs: each named by its visible label, units beside the box (not in its name).
import { type ReactNode, useId } from "react";

export function NumberField({
  label,
  unit,
  value,
  placeholder,
  min = 0,
  max,
  step = "any",
  onChange,
}: {
  label: string;
  unit?: string;
  value: string;
  placeholder?: string;
  min?: number;
  max?: number;
  step?: number | "any";
  onChange: (v: string) => void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <span className="with-unit">
        <input
          id={id}
          type="number"
          inputMode="decimal"
          min={min}
          max={max}
          step={step}
          value={value}
          placeholder={placeholder ?? "any"}
          onChange={(e) => onChange(e.target.value)}
        />
        {unit ? <span className="unit">{unit}</span> : null}
      </span>
    </div>
  );
}

export function Check({
  label,
  children,
  checked,
  onChange,
}: {
  /** The accessible name, when the visible words are shorter (a legend says the rest). */
  label?: string;
  children: ReactNode;
  checked: boolean;
  onChange: (on: boolean) => void;
}) {
  return (
    <label className="toggle">
      <input type="checkbox" aria-label={label} checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {children}
    </label>
  );
}
