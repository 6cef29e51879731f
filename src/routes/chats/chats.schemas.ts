import { z } from "@hono/zod-openapi";
import { AGENT_NAME } from "../../agents/agent-paths";
import { decodeChatCursor, MAX_CHAT_CURSOR } from "../../chats/chat-cursor";
import { PREVIEW_CHARS, TITLE_CHARS } from "../../chats/chat-text";
import { chatsTable } from "../../db/chats-schema";
import { createSelectSchema } from "../../db/zod";
import { CursorQuery, cursorParam } from "../../core/paging";

const CHAT_ID_EXAMPLE = "chat_Qm9vWmFwX2xpc3Rfb2ZfY2g";

export const ChatSchema = createSelectSchema(chatsTable, {
  id: (schema) =>
    schema.openapi({
      description:
        "Chosen by the server. Also the chat's agent instance: `/agents/chat-agent/<id>` (with a connect ticket) and its `/get-messages`.",
      example: CHAT_ID_EXAMPLE,
    }),
  title: (schema) =>
    schema.openapi({
      description:
        "Yours, or made from the first exchange by the model once it is answered; null until then.",
      example: "Weekend trip to Lisbon",
    }),
  lastActivityAt: (schema) =>
    schema.openapi({ description: "Creation, or the last change of the transcript: the list's order." }),
  lastMessageAt: (schema) =>
    schema.openapi({ description: "When the transcript last changed; null while empty." }),
  preview: (schema) =>
    schema.openapi({
      description: `The latest message's text, cut to ${PREVIEW_CHARS} characters; null while none has text.`,
    }),
  messageCount: (schema) => schema.openapi({ description: "Messages kept (the last 200)." }),
})
  .omit({ userId: true })
  .openapi("Chat");

// NUL and other control characters cannot round-trip a title into every client.
// oxlint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]/;

const ChatTitle = z
  .string()
  .max(TITLE_CHARS * 4)
  .transform((value) => value.trim())
  .refine((value) => value.length > 0, "Must not be blank")
  .refine((value) => Array.from(value).length <= TITLE_CHARS, `At most ${TITLE_CHARS} characters`)
  .refine((value) => !CONTROL.test(value), "Control characters are not allowed")
  .openapi({
    type: "string",
    maxLength: TITLE_CHARS,
    // Not blank, no control characters: what the refinements above check, as the document's one pattern.
    pattern: "^(?=[\\s\\S]*\\S)[^\\u0000-\\u001f\\u007f]*$",
    example: "Weekend trip to Lisbon",
  });

export const CreateChatBody = z
  .object({
    title: ChatTitle.optional().openapi({
      description: "Omitted: the chat is titled from its first exchange.",
    }),
  })
  .strict()
  .openapi("CreateChatBody");

export const RenameChatBody = z.object({ title: ChatTitle }).strict().openapi("RenameChatBody");

export const ChatIdParams = z.object({
  id: z
    .string()
    .regex(AGENT_NAME, "A chat id as the list gives it")
    .openapi({ param: { name: "id", in: "path" }, example: CHAT_ID_EXAMPLE }),
});

export const ChatListQuery = CursorQuery.extend({
  cursor: cursorParam(
    "cursor",
    decodeChatCursor,
    "Invalid cursor: pass a nextCursor as given",
    { description: "The `nextCursor` of the previous page; omitted for the first page." },
    new RegExp(`^[A-Za-z0-9_-]{1,${MAX_CHAT_CURSOR}}$`),
  ),
});

export const ChatPageSchema = z
  .object({
    items: z.array(ChatSchema),
    nextCursor: z
      .string()
      .nullable()
      .openapi({ description: "Pass as `cursor` for the next page; null at the end." }),
  })
  .openapi("ChatPage");

export const DeletedChatSchema = z
  .object({
    id: z.string(),
    pending: z.boolean().openapi({
      description:
        "True when wiping the chat's agent storage failed for now: the hourly cron finishes it. The chat is " +
        "gone from your list and unreachable either way.",
    }),
  })
  .openapi("DeletedChat");
