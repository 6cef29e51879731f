import { formatBytes, formatPercent, plural } from "../ui/format";
import type { StorageUsage } from "./types";

/**
 * Storage used against the quota. Any use shows as a sliver (51 bytes of 1 GiB would round to nothing),
 * and the text says the bytes and the share, "less than 0.1%" rather than "0%".
 */
export function StorageMeter({ usage }: { usage: StorageUsage }) {
  // Uploads under way hold their bytes too (reservedBytes), so the bar counts them.
  const used = usage.bytes + usage.reservedBytes;
  const fraction = usage.quotaBytes > 0 ? Math.min(used / usage.quotaBytes, 1) : 1;
  const summary = `${formatBytes(used)} of ${formatBytes(usage.quotaBytes)} (${formatPercent(fraction)})`;
  return (
    <>
      <div
        role="meter"
        aria-label="Storage used"
        aria-valuemin={0}
        aria-valuemax={usage.quotaBytes}
        aria-valuenow={used}
        aria-valuetext={summary}
        className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
      >
        <div
          data-testid="storage-used"
          className="h-full rounded-full bg-orange-700"
          style={{ width: `${fraction * 100}%`, minWidth: used > 0 ? "0.375rem" : 0 }}
        />
      </div>
      <p className="mt-2 text-sm text-slate-700">
        {summary} · {plural(usage.files, "file")}
      </p>
    </>
  );
}
