// `npm run pack` arguments: a flag's value may follow it after a space or an `=`; a switch is one only for its command.
import { describe, expect, it } from "vitest";
import { parseArgs } from "../../../scripts/pack/cli.ts";

describe("parseArgs", () => {
  it("world --lots 50000 reads 50000 as the value of --lots, as --lots=50000 does", () => {
    for (const argv of [
      ["world", "--lots", "50000"],
      ["world", "--lots=50000"],
    ]) {
      const { positional, flags } = parseArgs(argv);
      expect(positional).toEqual(["world"]);
      expect(flags.get("lots")).toBe("50000");
    }
  });

  it("convert --lots stays a switch: the files after it are positional", () => {
    const { positional, flags } = parseArgs(["convert", "--lots", "in.pack", "out.pack"]);
    expect(flags.get("lots")).toBe("true");
    expect(positional).toEqual(["convert", "in.pack", "out.pack"]);
  });

  it("a flag with no value is refused with its name", () => {
    expect(() => parseArgs(["world", "--lots"])).toThrow("flag --lots needs a value");
  });
});
