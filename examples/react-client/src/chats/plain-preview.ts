// A chat's preview as the list shows it: the service sends the latest message's Markdown on one line
// (cut to a length), and a list row reads better as plain text. Small and local on purpose: the Markdown
// parser the chat renders with sees block syntax only at a line's start, and a preview has no lines left.

const REPLACEMENTS: [RegExp, string][] = [
  [/<[a-z/!][^>]*>/gi, " "], // HTML tags
  [/!\[([^\]]*)\]\([^)]*\)/g, "$1"], // images: their alt text
  [/\[([^\]]+)\]\([^)]*\)/g, "$1"], // links: their text
  [/\[([^\]]+)\]\[[^\]]*\]/g, "$1"], // reference links
  [/(^|\s)`{3,}[\w+-]*/g, "$1"], // code fences, with their language
  [/`+/g, ""], // inline code marks
  [/(^|\s)#{1,6}(?=\s)/g, "$1"], // headings
  [/(^|\s)(?:[-*_]\s*){3,}(?=\s|$)/g, "$1"], // rules
  [/\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)+\|?/g, " "], // table separator rows
  [/\s*\|\s*/g, " "], // table cells
  [/^\s*(?:>\s*)+/, ""], // a quote at the start
  [/^\s*(?:[-*+]|\d+[.)])\s+/, ""], // a list item at the start
  [/(\*\*|__|~~)(?=\S)([\s\S]*?\S)\1/g, "$2"], // strong, strikethrough
  [/(^|[\s(])[*_](?=\S)([^*_]*?\S)[*_](?=$|[\s).,;:!?…])/g, "$1$2"], // emphasis
  [/\\([\\`*_{}[\]()#+\-.!|>~])/g, "$1"], // escapes
];

/** `markdown` as plain text on one line: no marks, link texts without their URLs, no HTML. */
export function plainPreview(markdown: string): string {
  let text = markdown;
  for (const [pattern, replacement] of REPLACEMENTS) text = text.replace(pattern, replacement);
  return text.replace(/\s+/g, " ").trim();
}
