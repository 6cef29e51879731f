// The rate limiters count in windows aligned to the clock: Cloudflare's, and miniflare's simulation of
// them (every key of one period rolls over at the same instant). A test that counts a limit to the
// last request must not straddle a rollover, or its count starts again halfway.

/** The period of every limiter in wrangler.jsonc. */
export const LIMITER_PERIOD_MS = 60_000;

/** Milliseconds left in the current limiter window. */
export function windowLeftMs(now = Date.now()): number {
  return LIMITER_PERIOD_MS - (now % LIMITER_PERIOD_MS);
}

/**
 * Resolves when at least `needMs` of a limiter window lies ahead: at once when the current window has
 * that much left, otherwise as the next window opens.
 */
export async function windowWithRoom(needMs: number): Promise<void> {
  if (needMs >= LIMITER_PERIOD_MS) throw new Error(`a scenario of ${needMs} ms cannot fit one window`);
  const left = windowLeftMs();
  if (left >= needMs) return;
  await new Promise((resolve) => setTimeout(resolve, left + 100));
}

const windowOf = (now = Date.now()) => Math.floor(now / LIMITER_PERIOD_MS);

/**
 * Runs `scenario` at once; if it fails after a rollover came during it (its count started again
 * halfway), runs it again in one window with `needMs` of room (`windowWithRoom`). Waiting up front made
 * a test wait out most of a minute half the time, for a scenario that takes seconds. `scenario` must
 * make its own clients (IPs, users, names): a second run must not inherit the first's counts.
 */
export async function inOneWindow<T>(needMs: number, scenario: () => Promise<T>): Promise<T> {
  const started = windowOf();
  try {
    return await scenario();
  } catch (err) {
    if (windowOf() === started) throw err;
    await windowWithRoom(needMs);
    return scenario();
  }
}
