/** How an image in a chat answer shows: loaded, as a link naming its host, or not at all. */
export type AnswerImage =
  | { kind: "image"; src: string }
  | { kind: "link"; href: string; host: string }
  | { kind: "none" };

/**
 * An answer's image URL, resolved against the page (`base`). Loading an image is a request nobody
 * clicked: an answer that read a private file could carry its text to another host in an image URL. So
 * only images of the service itself (`apiOrigin`) load; other http(s) images become plain links.
 */
export function answerImage(src: string | undefined, apiOrigin: string, base: string): AnswerImage {
  if (!src) return { kind: "none" };
  let url: URL;
  try {
    url = new URL(src, base);
  } catch {
    return { kind: "none" };
  }
  if (url.origin === apiOrigin) return { kind: "image", src: url.href };
  if (url.protocol !== "https:" && url.protocol !== "http:") return { kind: "none" };
  return { kind: "link", href: url.href, host: url.host };
}
