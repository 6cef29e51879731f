import { expect } from "vitest";

export const KB8 = 8 * 1024;
/** Far above what linear work on 8-16 KB takes, far below what a backtracking pattern takes. */
export const MAX_MS = 50;

/** Generic 8 KB inputs: whitespace runs, controls, separators, lone surrogates, each with a bad ending. */
export function hostile(size = KB8): string[] {
  const fill = (unit: string) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
  return [
    `${fill(" ")}!`,
    `${fill(" \t")}\u0000`,
    fill("\u0000"),
    fill("\ud800"),
    fill("\udc00a"),
    `${fill("9")}x`,
    `${fill("a-")}-`,
    `${fill('"')}\\`,
    fill(",;="),
    fill("é"),
  ];
}

/** Runs `check` once and fails when it took more than MAX_MS. */
export function expectFast(check: () => void, label = ""): void {
  const started = performance.now();
  check();
  const ms = performance.now() - started;
  expect(ms, `${label.slice(0, 60)}… took ${ms.toFixed(1)} ms`).toBeLessThan(MAX_MS);
}
