import { useId, useLayoutEffect, useRef, type KeyboardEvent } from "react";
import { inputClass } from "../ui/field";

// It grows with its text to about eight lines, then scrolls inside.
const MAX_HEIGHT_PX = 200;

/**
 * The chat's message box: a textarea that grows as you write. Enter sends, Shift+Enter breaks the line,
 * and an Enter that confirms an input method's composition (Japanese, Chinese…) only composes.
 */
export function MessageBox({
  value,
  onChange,
  onSend,
}: {
  value: string;
  onChange: (value: string) => void;
  onSend: () => void;
}) {
  const box = useRef<HTMLTextAreaElement>(null);
  const hint = useId();

  // As the text changes, and as the width does (lines wrap differently; phones use a larger font).
  useLayoutEffect(() => {
    const element = box.current;
    if (!element) return;
    const fit = () => {
      element.style.height = "auto";
      const borders = element.offsetHeight - element.clientHeight;
      const height = element.scrollHeight + borders;
      element.style.height = `${Math.min(height, MAX_HEIGHT_PX)}px`;
      element.style.overflowY = height > MAX_HEIGHT_PX ? "auto" : "hidden";
    };
    fit();
    window.addEventListener("resize", fit);
    return () => window.removeEventListener("resize", fit);
  }, [value]);

  function onKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key !== "Enter" || event.shiftKey) return;
    // 229: the key code browsers report for keys an input method is still handling.
    if (event.nativeEvent.isComposing || event.keyCode === 229) return;
    event.preventDefault();
    onSend();
  }

  return (
    <>
      <textarea
        ref={box}
        rows={1}
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        onKeyDown={onKeyDown}
        placeholder="Ask something…"
        aria-label="Message"
        aria-describedby={hint}
        enterKeyHint="send"
        className={`${inputClass} min-h-10 flex-1 resize-none`}
      />
      <span id={hint} className="sr-only">
        Enter sends, Shift+Enter starts a new line.
      </span>
    </>
  );
}
