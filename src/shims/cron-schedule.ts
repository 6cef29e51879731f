// The Agents SDK parses cron expressions with cron-schedule only for schedules given as a cron string
// (`this.schedule("*/5 * * * *", ...)`); the agents here schedule by date or delay, never by cron, so
// the build (scripts/build-worker.mjs) swaps the package for this stand-in. The name is the one the
// SDK imports.

export function parseCronExpression(): never {
  throw new Error("cron-schedule is not bundled in this Worker: its agents schedule by date or delay");
}
