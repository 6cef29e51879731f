import type { ComponentProps, ElementType } from "react";
import Markdown, { type Components, type ExtraProps } from "react-markdown";
import remarkGfm from "remark-gfm";
import { API_ORIGIN } from "../config";
import { answerImage } from "./answer-image";

// Each element styled here rather than by a typography plugin; wide code and tables scroll inside
// themselves, never the page. Links open elsewhere without handing this page to the target.
function styled<T extends "p" | "ul" | "ol" | "code" | "pre" | "blockquote" | "th" | "td">(
  tag: T,
  className: string,
) {
  const Tag = tag as ElementType;
  return ({ node: _node, ...props }: ComponentProps<T> & ExtraProps) => (
    <Tag className={className} {...props} />
  );
}

const heading = "mt-3 mb-1 font-semibold";
const COMPONENTS: Components = {
  p: styled("p", "my-2 first:mt-0 last:mb-0"),
  ul: styled("ul", "my-2 list-disc space-y-1 pl-5"),
  ol: styled("ol", "my-2 list-decimal space-y-1 pl-5"),
  // An answer's headings are not the page's: bold paragraphs keep the page outline to its own.
  h1: styled("p", heading),
  h2: styled("p", heading),
  h3: styled("p", heading),
  h4: styled("p", heading),
  // A link whose URL the renderer dropped (javascript: and the like) stays text, not a link to nowhere.
  a: ({ node: _node, href, ...props }) =>
    href ? (
      <a
        className="font-medium text-orange-800 underline"
        target="_blank"
        rel="noopener noreferrer"
        href={href}
        {...props}
      />
    ) : (
      <span {...props} />
    ),
  // Images of the service load; any other host's is a link saying where it goes (answer-image.ts).
  img: ({ node: _node, src, alt }) => {
    const image = answerImage(typeof src === "string" ? src : undefined, API_ORIGIN, document.baseURI);
    if (image.kind === "image") {
      return <img className="my-2 inline-block max-w-full rounded" src={image.src} alt={alt ?? ""} />;
    }
    if (image.kind === "none") return alt ? <span>{alt}</span> : null;
    const label = `image from ${image.host}`;
    return (
      <a
        className="font-medium text-orange-800 underline"
        target="_blank"
        rel="noopener noreferrer"
        href={image.href}
      >
        {alt ? `${alt} (${label})` : label}
      </a>
    );
  },
  code: styled("code", "rounded bg-slate-100 px-1 py-0.5 font-mono text-[0.9em]"),
  pre: styled(
    "pre",
    "my-2 overflow-x-auto rounded-lg bg-slate-900 p-3 font-mono text-sm text-slate-100 [&_code]:bg-transparent [&_code]:p-0 [&_code]:text-slate-100",
  ),
  blockquote: styled("blockquote", "my-2 border-l-4 border-slate-300 pl-3 text-slate-700"),
  table: ({ node: _node, ...props }) => (
    <div className="my-2 overflow-x-auto">
      <table className="min-w-full border-collapse text-sm" {...props} />
    </div>
  ),
  th: styled("th", "border border-slate-300 bg-slate-50 px-2 py-1 text-left"),
  td: styled("td", "border border-slate-300 px-2 py-1"),
};

/**
 * An answer as Markdown, re-rendered as it streams. react-markdown builds React elements from the
 * syntax tree: raw HTML in a model's answer is not rendered (no rehype-raw), `javascript:` URLs are
 * dropped by its default URL filter, and only the service's own images load.
 */
export function MarkdownText({ text }: { text: string }) {
  return (
    <Markdown remarkPlugins={[remarkGfm]} components={COMPONENTS}>
      {text}
    </Markdown>
  );
}
