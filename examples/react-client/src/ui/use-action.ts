import { useCallback, useState } from "react";

/**
 * A button's or form's action: busy while it runs, its failure kept for an ErrorMessage and cleared
 * when the next run starts. `run` resolves true when the action succeeded.
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = useCallback(async (action: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      await action();
      return true;
    } catch (err) {
      setError(err);
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, run };
}
