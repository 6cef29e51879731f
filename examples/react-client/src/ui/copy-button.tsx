import { useState } from "react";
import { Button } from "./button";
import { CopyIcon } from "./icons";

/** Copies `text` to the clipboard and says so for two seconds. */
export function CopyButton({ text, label = "Copy" }: { text: string; label?: string }) {
  const [copied, setCopied] = useState<boolean | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
    } catch {
      // No clipboard permission (an insecure origin, a locked-down browser): the text stays selectable.
      setCopied(false);
    }
    setTimeout(() => setCopied(null), 2000);
  }
  return (
    <Button size="sm" onClick={() => void copy()}>
      <CopyIcon />
      <span aria-live="polite">
        {copied === true ? "Copied" : copied === false ? "Select and copy" : label}
      </span>
    </Button>
  );
}
