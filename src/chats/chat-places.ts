import { ownerIdFromChatName } from "../auth/chat-names";
import { userOwner } from "../core/owner";
import type { Db } from "../db/client";
import { dbOfCarriedOwner } from "../db/carried-owner";
import type { Databases } from "../db/databases";
import { userOfChatId } from "./chat-ids";

/**
 * The data database holding chat `name`'s index row, from the user its name carries (a chat id's, or a
 * `user-<id>[-<suffix>]` name's); a chat id from before shards: where its workspace moved, else the
 * directory's table. Null for a user who does not exist.
 */
export function chatDb(dbs: Databases, name: string): Promise<Db | null> {
  const userId = userOfChatId(name) ?? ownerIdFromChatName(name);
  return dbOfCarriedOwner(dbs, userId === null ? null : userOwner(userId), { kind: "chat", ref: name });
}
