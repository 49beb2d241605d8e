// The phrasing corpus (test/fixtures/chat/phrasings.json) through the offline planner: each phrasing, after the turn
// it follows if any, makes exactly the expected tool call with exactly the expected arguments, or says the expected words.
import { describe, expect, it } from "vitest";
import { plan } from "../../../src/chat/offline/planner.ts";
import { conversation, corpus, TOOLS } from "../../fixtures/chat/corpus.ts";

describe("the phrasing corpus", () => {
  it("holds at least 60 phrasings, each expecting a call or words", () => {
    expect(corpus.phrasings.length).toBeGreaterThanOrEqual(60);
    for (const p of corpus.phrasings) expect(Boolean(p.call) !== Boolean(p.says), p.say).toBe(true);
  });

  it.each(corpus.phrasings.map((p) => [p.after ? `${p.after}: ${p.say}` : p.say, p] as const))("%s", (_, p) => {
    const turn = plan(conversation(p.say, p.after), TOOLS);
    if (p.call) {
      expect(turn.text, turn.text).toBeUndefined();
      expect(turn.tool_calls).toEqual([{ name: p.call.name, arguments: p.call.args }]);
    } else {
      expect(turn.tool_calls).toBeUndefined();
      expect(turn.text).toContain(p.says);
    }
  });
});
