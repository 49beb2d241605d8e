// A lot named from the header waits for the map: taken once when the map listens, passed straight on after.
import { describe, expect, it } from "vitest";
import { lotTarget } from "../../../web/src/alerts/describe.ts";
import { onFlight, requestFlight } from "../../../web/src/alerts/flight.ts";

describe("flights to a lot", () => {
  it("a target asked for before the map listens is taken by the first listener, once", () => {
    const t = lotTarget("1//DP1", [151, -33]);
    requestFlight(t);
    const got: string[] = [];
    const stop = onFlight((x) => got.push(x.query));
    expect(got).toEqual([t.query]);
    stop();
    const later: string[] = [];
    onFlight((x) => later.push(x.query))();
    expect(later).toEqual([]);
  });

  it("while the map listens a target goes straight to it; after it stops, the next one waits", () => {
    const got: string[] = [];
    const stop = onFlight((x) => got.push(x.query));
    requestFlight(lotTarget("2//DP1", [151, -33]));
    expect(got).toEqual(["lot_id=2%2F%2FDP1"]);
    stop();
    requestFlight(lotTarget("3//DP1", [151, -33]));
    expect(got).toHaveLength(1);
    const next: string[] = [];
    onFlight((x) => next.push(x.query));
    expect(next).toEqual(["lot_id=3%2F%2FDP1"]);
  });
});
