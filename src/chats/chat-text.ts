// Runs in both: the text of a chat message, and text cut to a length for previews and titles.
import type { UIMessage } from "ai";

/** The longest title, given or made. */
export const TITLE_CHARS = 80;
/** The longest preview of a chat's latest message in its list row. */
export const PREVIEW_CHARS = 120;

/** The message's text parts as one line (reasoning, tools and files left out). */
export function messageText(message: UIMessage): string {
  return message.parts
    .flatMap((part) => (part.type === "text" ? [part.text] : []))
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
}

/** At most `max` characters (code points, so no emoji is split), ending in "…" when cut, at a word if one is near. */
export function cutOff(text: string, max: number): string {
  const chars = Array.from(text.trim());
  if (chars.length <= max) return chars.join("");
  const cut = chars.slice(0, max - 1).join("");
  const space = cut.lastIndexOf(" ");
  return `${(space >= cut.length * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
