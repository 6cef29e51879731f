import { userGoneOr } from "../../auth/require-auth";
import * as chats from "../../chats/chats";
import { findChatForUser, renameChat } from "../../chats/chats.queries";
import { created, ok } from "../../http/envelope";
import { ApiError } from "../../http/errors";
import type { AuthedRouteHandler } from "../../http/types";
import type { CreateRoute, GetOneRoute, ListRoute, RemoveRoute, RenameRoute } from "./chats.routes";

const notFound = () => new ApiError(404, "Chat not found");

export const create: AuthedRouteHandler<CreateRoute> = async (c) => {
  const { title } = c.req.valid("json");
  const userId = c.get("user").id;
  let chat;
  try {
    chat = await chats.createChat(c.get("db"), userId, title ?? null);
  } catch (err) {
    throw userGoneOr(err, userId);
  }
  c.get("logger").info("chat_created", { chatId: chat.id });
  return created(c, chat);
};

export const list: AuthedRouteHandler<ListRoute> = async (c) => {
  const { cursor, limit } = c.req.valid("query");
  return ok(c, await chats.listChats(c.get("db"), c.get("user").id, cursor, limit));
};

export const getOne: AuthedRouteHandler<GetOneRoute> = async (c) => {
  const chat = await findChatForUser(c.get("db"), c.req.valid("param").id, c.get("user").id);
  if (!chat) throw notFound();
  return ok(c, chat);
};

export const rename: AuthedRouteHandler<RenameRoute> = async (c) => {
  const { title } = c.req.valid("json");
  const chat = await renameChat(c.get("db"), c.req.valid("param").id, c.get("user").id, title);
  if (!chat) throw notFound();
  return ok(c, chat);
};

export const remove: AuthedRouteHandler<RemoveRoute> = async (c) => {
  const { id } = c.req.valid("param");
  const logger = c.get("logger");
  const deleted = await chats.deleteChat(c.env, c.get("db"), c.get("user").id, id, logger);
  if (!deleted) throw notFound();
  logger.info("chat_deleted", { chatId: id, pending: deleted.pending });
  return ok(c, deleted);
};
