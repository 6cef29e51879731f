// Runs in both: the UTC days that budgets and reports count in.

const DAY_MS = 86_400_000;

/** The UTC day of `at`, as `YYYY-MM-DD`. */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/** The first day of `at`'s UTC month. */
export const monthStart = (at: Date): string => `${utcDay(at).slice(0, 8)}01`;

/** Days from `from` to `to`, both counted (`YYYY-MM-DD`). */
export const daysBetween = (from: string, to: string): number =>
  Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS) + 1;
