import { afterEach, describe, expect, it, vi } from "vitest";
import { inOneWindow, LIMITER_PERIOD_MS } from "../helpers/limiter-window";

afterEach(() => vi.restoreAllMocks());

/** A clock at `ms` into a limiter window, moved by the scenarios below. */
function clockAt(ms: number) {
  let now = 1000 * LIMITER_PERIOD_MS + ms;
  vi.spyOn(Date, "now").mockImplementation(() => now);
  return { advance: (by: number) => (now += by) };
}

describe("inOneWindow (test/helpers/limiter-window.ts)", () => {
  it("runs a scenario once and passes its failure on when no rollover came during it", async () => {
    clockAt(LIMITER_PERIOD_MS - 5_000);
    const scenario = vi.fn(async () => {
      throw new Error("the limit was not applied");
    });
    await expect(inOneWindow(20_000, scenario)).rejects.toThrow("the limit was not applied");
    expect(scenario).toHaveBeenCalledTimes(1);
  });

  it("runs a scenario a rollover cut short again, and passes a second failure on", async () => {
    const clock = clockAt(LIMITER_PERIOD_MS - 1_000);
    const scenario = vi.fn(async () => {
      clock.advance(2_000);
      throw new Error("the limit was not applied");
    });
    await expect(inOneWindow(20_000, scenario)).rejects.toThrow("the limit was not applied");
    expect(scenario).toHaveBeenCalledTimes(2);
  });

  it("answers with the second run's result when it passes", async () => {
    const clock = clockAt(LIMITER_PERIOD_MS - 1_000);
    let runs = 0;
    const result = await inOneWindow(20_000, async () => {
      runs++;
      clock.advance(2_000);
      if (runs === 1) throw new Error("counted across a rollover");
      return "limited";
    });
    expect([result, runs]).toEqual(["limited", 2]);
  });
});
