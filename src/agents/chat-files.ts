// Runs in the Durable Object: a chat's file parts, resolved on each turn as the chat's owner into what
// the model takes. The transcript keeps each part as sent (a reference); only the model's copy holds
// text, image data or notes. A part the turn's own message cannot use refuses the turn before any
// model call; one further back becomes a note.
import type { FileUIPart, UIMessage } from "ai";
import { base64 } from "../core/base64url";
import { chatModelTakesImages } from "../core/config";
import { openDatabases } from "../db/databases";
import type { Logger } from "../core/logger";
import { fileNameFromKey } from "../files/file-keys";
import { dbOfKey } from "../files/key-places";
import * as content from "../files/file-content";
import { asUntrustedData } from "../files/untrusted-text";
import { fileSource, type FileSource } from "./file-sources";

/** File parts one message may carry. */
export const MAX_FILES_PER_MESSAGE = 4;
/** File parts read per turn, newest first; older ones become a note. */
export const MAX_FILES_PER_TURN = 8;
/** Images sent per turn, newest first (each up to IMAGE_MAX_BYTES). */
export const MAX_IMAGES_PER_TURN = 4;

export const FILE_REFUSALS = {
  publicChat:
    "Files can be attached only in a chat of your own: open one from your chat list (or, with sign-in on, your chat user-<id>).",
  tooMany: `A message can carry at most ${MAX_FILES_PER_MESSAGE} files.`,
  unavailable: (name: string) =>
    `The file “${name}” is not available: it was deleted, or it is not one of your files.`,
  imageTooLarge: (name: string) =>
    `The image “${name}” is larger than ${content.IMAGE_MAX_BYTES / 1024 / 1024} MiB, the most the chat shows the model.`,
  failed: "The attached files cannot be read right now. Try again shortly.",
} as const;

type Part = UIMessage["parts"][number];
type Outcome = { parts: Part[] } | { refusal: string };

export type ResolvedFiles = { ok: true; messages: UIMessage[] } | { ok: false; message: string };

export interface FileTurn {
  env: Env;
  /** The chat's owner (chat-owner.ts): files are read as them; a chat without one takes no files. */
  owner: number | null;
  /** The origin the turn's socket was opened at. */
  origin: string | undefined;
  logger: Logger;
}

const isFile = (part: Part): part is FileUIPart => part.type === "file";
// A client writes the part: its name and type may be anything, of any length.
const NAME_CHARS = 200;
const asString = (value: unknown) => (typeof value === "string" ? value : undefined);
const nameOf = (part: FileUIPart) => asString(part.filename)?.slice(0, NAME_CHARS);
const note = (text: string): Part => ({ type: "text", text: `[${text}]` });
const described = (name: string, type: string, size: number) =>
  `${JSON.stringify(name)} (${type || "no type"}, ${content.sizeLabel(size)})`;

/** One file whose bytes may be read: a recorded file of the owner, or a data: URL's. */
interface Readable {
  name: string;
  type: string;
  size: number;
  read(maxBytes: number): Promise<Pick<content.FileHead, "bytes" | "truncated"> | null>;
}

class Resolver {
  private imagesLeft = MAX_IMAGES_PER_TURN;
  private filesLeft = MAX_FILES_PER_TURN;
  private readonly dbs;

  constructor(
    private readonly turn: FileTurn,
    private readonly owner: number,
  ) {
    this.dbs = openDatabases(turn.env);
  }

  private async readable(part: FileUIPart, source: FileSource & { kind: "key" | "data" }, name: string) {
    if (source.kind === "data") {
      const { bytes } = source;
      const head = (max: number) => ({ bytes: bytes.subarray(0, max), truncated: bytes.byteLength > max });
      const type = asString(part.mediaType) ?? "";
      return { name, type, size: bytes.byteLength, read: async (max: number) => head(max) };
    }
    // The key names the workspace holding its record (one from before shards: the directory's tables).
    const db = await dbOfKey(this.dbs, source.key);
    const file = db && (await content.ownFile(db, this.owner, source.key));
    if (!file) return null;
    const bucket = this.turn.env.R2_BUCKET;
    return {
      name: file.originalName,
      type: file.contentType,
      size: file.size,
      read: (max: number) => content.readHead(bucket, file, max),
    } satisfies Readable;
  }

  async part(part: FileUIPart): Promise<Outcome> {
    const source = fileSource(part, nameOf(part) ?? "the attachment", this.turn.origin);
    if (source.kind === "refused") return { refusal: source.reason };
    const keyName = source.kind === "key" ? fileNameFromKey(source.key).slice(0, NAME_CHARS) : undefined;
    const name = nameOf(part) ?? keyName ?? "the attachment";
    if (this.filesLeft-- <= 0) return { parts: [note(`File ${JSON.stringify(name)} was attached earlier.`)] };
    const file = await this.readable(part, source, name);
    if (!file) return { refusal: FILE_REFUSALS.unavailable(name) };
    const about = described(file.name, file.type, file.size);
    if (content.isTextLike(file.type, file.name)) return this.text(file, about);
    if (content.isImage(file.type)) return this.image(file, about);
    return { parts: [note(`Attached file ${about}: its contents cannot be read in this chat.`)] };
  }

  private async text(file: Readable, about: string): Promise<Outcome> {
    const head = await file.read(content.TEXT_INLINE_BYTES);
    if (!head) return { refusal: FILE_REFUSALS.unavailable(file.name) };
    const cut = head.truncated
      ? `\n[Cut here: the first ${head.bytes.byteLength} of ${file.size} bytes are shown.]`
      : "";
    const text = `${asUntrustedData(`Attached file ${about}`, content.decodeText(head))}${cut}`;
    return { parts: [{ type: "text", text }] };
  }

  private async image(file: Readable, about: string): Promise<Outcome> {
    if (!chatModelTakesImages(this.turn.env)) {
      return { parts: [note(`Attached image ${about}: this chat's model cannot see images.`)] };
    }
    if (this.imagesLeft-- <= 0) return { parts: [note(`Image ${about} was shown earlier.`)] };
    if (file.size > content.IMAGE_MAX_BYTES) return { refusal: FILE_REFUSALS.imageTooLarge(file.name) };
    const head = await file.read(content.IMAGE_MAX_BYTES);
    if (!head) return { refusal: FILE_REFUSALS.unavailable(file.name) };
    const type = content.bareType(file.type);
    const url = `data:${type};base64,${base64(head.bytes)}`;
    return {
      parts: [note(`Attached image ${about}:`), { type: "file", mediaType: type, filename: file.name, url }],
    };
  }
}

/** A message's parts for the model: files resolved, or the refusal of the first one it cannot use. */
async function resolveMessage(message: UIMessage, resolve: (part: FileUIPart) => Promise<Outcome>) {
  const parts: Part[] = [];
  for (const part of message.parts) {
    if (!isFile(part)) parts.push(part);
    else {
      const outcome = await resolve(part);
      if ("refusal" in outcome) return outcome;
      parts.push(...outcome.parts);
    }
  }
  return { parts };
}

/**
 * The transcript as the model gets it. File parts of assistant messages (which a client may send) are
 * dropped: only a user's message carries files. The turn's own message is the latest user message.
 */
export async function resolveFileParts(messages: UIMessage[], turn: FileTurn): Promise<ResolvedFiles> {
  if (!messages.some((m) => m.parts.some((p) => p.type === "file" || p.type === "reasoning-file"))) {
    return { ok: true, messages };
  }
  const latest = messages.findLastIndex((m) => m.role === "user");
  const own = latest < 0 ? [] : messages[latest]!.parts.filter(isFile);
  if (own.length > MAX_FILES_PER_MESSAGE) return { ok: false, message: FILE_REFUSALS.tooMany };
  try {
    const { owner } = turn;
    if (owner === null && own.length > 0) return { ok: false, message: FILE_REFUSALS.publicChat };
    const resolver = owner === null ? null : new Resolver(turn, owner);
    const resolve = async (part: FileUIPart): Promise<Outcome> =>
      resolver ? resolver.part(part) : { refusal: FILE_REFUSALS.publicChat };
    const out = [...messages];
    // Newest first: the turn's own files, then the latest earlier ones, get the per-turn budgets.
    for (let i = messages.length - 1; i >= 0; i--) {
      const message = messages[i]!;
      if (message.role !== "user") {
        const parts = message.parts.filter((p) => p.type !== "file" && p.type !== "reasoning-file");
        out[i] = parts.length === message.parts.length ? message : { ...message, parts };
        continue;
      }
      if (!message.parts.some(isFile)) continue;
      const earlier = async (part: FileUIPart): Promise<Outcome> => {
        const outcome = await resolve(part);
        return "refusal" in outcome ? { parts: [note(`Attachment not read: ${outcome.refusal}`)] } : outcome;
      };
      const resolved = await resolveMessage(message, i === latest ? resolve : earlier);
      if ("refusal" in resolved) return { ok: false, message: resolved.refusal };
      out[i] = { ...message, parts: resolved.parts };
    }
    return { ok: true, messages: out };
  } catch (error) {
    turn.logger.error("chat_files_failed", { error: String(error) });
    return { ok: false, message: FILE_REFUSALS.failed };
  }
}
