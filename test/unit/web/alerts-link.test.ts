// The e-mail link opens the notifications list once: the parameter is read, then dropped from the address.
import { describe, expect, it } from "vitest";
import { notificationsLinkOf } from "../../../web/src/alerts/link.ts";

describe("the notifications link in the address", () => {
  it("?notifications=<alert id> opens the list and leaves no query behind", () => {
    expect(notificationsLinkOf("?notifications=5b0d2f7e-2a41")).toEqual({
      open: true,
      alertId: "5b0d2f7e-2a41",
      rest: "",
    });
  });

  it("other parameters are kept, in their order, without it", () => {
    expect(notificationsLinkOf("?a=1&notifications=x&b=two")).toEqual({ open: true, alertId: "x", rest: "?a=1&b=two" });
  });

  it("an empty value still opens the list, naming no alert", () => {
    expect(notificationsLinkOf("?notifications=")).toMatchObject({ open: true, alertId: null, rest: "" });
  });

  it("an address without it opens nothing and is left as it is", () => {
    expect(notificationsLinkOf("?a=1")).toEqual({ open: false, alertId: null, rest: "?a=1" });
    expect(notificationsLinkOf("")).toEqual({ open: false, alertId: null, rest: "" });
  });
});
