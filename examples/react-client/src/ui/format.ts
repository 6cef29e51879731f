const BYTE_UNITS = ["KiB", "MiB", "GiB", "TiB"];

/** "51 bytes", "1.5 KiB", "1 GiB": one decimal, none when it is 0. */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return plural(bytes, "byte");
  let value = bytes / 1024;
  let unit = 0;
  while (Number(value.toFixed(1)) >= 1024 && unit < BYTE_UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Number(value.toFixed(1))} ${BYTE_UNITS[unit]}`;
}

/** A share as people read it: "12%", "0.4%", "less than 0.1%" (never "0%" for something). */
export function formatPercent(fraction: number): string {
  if (fraction === 0) return "0%";
  if (fraction < 0.001) return "less than 0.1%";
  return `${Number((fraction * 100).toFixed(fraction < 0.01 ? 1 : 0))}%`;
}

export function formatDate(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** "1 todo", "3 todos". */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 86_400_000],
  ["month", 30 * 86_400_000],
  ["day", 86_400_000],
  ["hour", 3_600_000],
  ["minute", 60_000],
];

/** "5 minutes ago", "in 3 days"; "just now" under a minute. */
export function fromNow(iso: string, now = Date.now()): string {
  const diff = Date.parse(iso) - now;
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms) return format.format(Math.round(diff / ms), unit);
  }
  return "just now";
}
