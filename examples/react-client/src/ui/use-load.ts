import { useCallback, useEffect, useState } from "react";

/**
 * What a screen or card shows from the service: loaded when `load` changes (keep it in a useCallback
 * over what it reads) and again on `reload`. A failed load keeps the last data beside its error.
 */
export function useLoad<T>(load: () => Promise<T>) {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const reload = useCallback(async () => {
    try {
      setData(await load());
      setError(null);
    } catch (err) {
      setError(err);
    }
  }, [load]);
  useEffect(() => void reload(), [reload]);
  return { data, error, reload };
}
