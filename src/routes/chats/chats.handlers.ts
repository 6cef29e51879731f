import { userGoneOr } from "../../http/require-auth";
import { ownDb } from "../../http/workspace-db";
import * as chats from "../../chats/chats";
import { findChatForUser, renameChat } from "../../chats/chats.queries";
import { created, ok } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import type { AuthedRouteContext } from "../../http/types";
import type { CreateRoute, GetOneRoute, ListRoute, RemoveRoute, RenameRoute } from "./chats.routes";

const notFound = () => new ApiError(404, "Chat not found");

export async function create(c: AuthedRouteContext<CreateRoute>) {
  const { title } = c.req.valid("json");
  const userId = c.get("user").id;
  let chat;
  try {
    chat = await chats.createChat(await ownDb(c), userId, title ?? null);
  } catch (err) {
    throw userGoneOr(err, userId);
  }
  c.get("logger").info("chat_created", { chatId: chat.id });
  return created(c, chat);
}

export async function list(c: AuthedRouteContext<ListRoute>) {
  const { cursor, limit } = c.req.valid("query");
  return ok(c, await chats.listChats(await ownDb(c), c.get("user").id, cursor, limit));
}

export async function getOne(c: AuthedRouteContext<GetOneRoute>) {
  const chat = await findChatForUser(await ownDb(c), c.req.valid("param").id, c.get("user").id);
  if (!chat) throw notFound();
  return ok(c, chat);
}

export async function rename(c: AuthedRouteContext<RenameRoute>) {
  const { title } = c.req.valid("json");
  const chat = await renameChat(await ownDb(c), c.req.valid("param").id, c.get("user").id, title);
  if (!chat) throw notFound();
  return ok(c, chat);
}

export async function remove(c: AuthedRouteContext<RemoveRoute>) {
  const { id } = c.req.valid("param");
  const logger = c.get("logger");
  const deleted = await chats.deleteChat(c.env, await ownDb(c), c.get("user").id, id, logger);
  if (!deleted) throw notFound();
  logger.info("chat_deleted", { chatId: id, pending: deleted.pending });
  return ok(c, deleted);
}
