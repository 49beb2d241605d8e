// What a scored site is worth: the margin over what stands first, the residual land value as a waterfall (a small bar
// chart: realisation, each cost, the RLV, what stands), and the lender's two-by-two sensitivity grid.
import type { SiteValueShape as SiteValue } from "../../../src/routes/schemas/valuation.ts";
import { dollars, waterfall, waterfallRange } from "../../../src/routes/schemas/value-waterfall.ts";

export function ValueDetail({ value: v }: { value: SiteValue }) {
  const all = waterfall(v);
  const [lo, hi] = waterfallRange(all);
  const pct = (d: number) => `${(((d - lo) / (hi - lo)) * 100).toFixed(2)}%`;
  const over = v.margin_over_as_is >= 0;
  return (
    <section className="value" aria-label="Value">
      <h3 className="small">What the site is worth</h3>
      <p className={over ? "value-verdict gain" : "value-verdict cost"}>
        {over
          ? `${dollars(v.margin_over_as_is)} more than what stands is worth`
          : `${dollars(-v.margin_over_as_is)} less than what stands is worth`}
        <span className="muted small">
          {" "}
          · residual {dollars(v.rlv)}
          {v.per_dwelling !== null && `, ${dollars(v.per_dwelling)} a dwelling`}
        </span>
      </p>
      <table className="waterfall" aria-label="Residual land value">
        <tbody>
          {all.map((b) => (
            <tr key={b.label} className={b.kind}>
              <th scope="row">{b.label}</th>
              <td className="num">{dollars(b.amount)}</td>
              <td className="bar-cell" aria-hidden="true">
                <span
                  className="bar"
                  style={{ left: pct(Math.min(b.from, b.to)), width: pct(lo + Math.abs(b.to - b.from)) }}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <table className="sensitivity" aria-label="Sensitivity">
        <thead>
          <tr>
            <th scope="col">Residual if</th>
            <th scope="col">10% lower</th>
            <th scope="col">10% higher</th>
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">Sale price</th>
            <td className="num">{dollars(v.sensitivity.price_minus_10)}</td>
            <td className="num">{dollars(v.sensitivity.price_plus_10)}</td>
          </tr>
          <tr>
            <th scope="row">Costs</th>
            <td className="num">{dollars(v.sensitivity.cost_minus_10)}</td>
            <td className="num">{dollars(v.sensitivity.cost_plus_10)}</td>
          </tr>
        </tbody>
      </table>
      <p className="muted small">
        Assumptions version {v.assumptions_version} ({v.model}); edit them in Account, Assumptions.
      </p>
    </section>
  );
}
