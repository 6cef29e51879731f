import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { ChatAgent, TodoFeedAgent } from "../../src/agents";
import type { SignedUpUser } from "./auth";
import { chatPath, requestTicket } from "./agents";
import { api, expectData } from "./http";
import { connectWS, type TestSocket } from "./ws";
import { ChatPageSchema, ChatSchema } from "../../src/routes/chats/chats.schemas";

/** POST /api/chats as `user`: the new chat. */
export async function createChat(user: SignedUpUser, body: object = {}) {
  return expectData(
    await api("/api/chats", { method: "POST", token: user.token, json: body }),
    201,
    ChatSchema,
  );
}

export async function getChat(user: SignedUpUser, id: string) {
  return expectData(await api(`/api/chats/${id}`, { token: user.token }), 200, ChatSchema);
}

/** Every chat of `user`, page by page (`limit` a page). */
export async function listAllChats(user: SignedUpUser, limit = 20) {
  const items = [];
  let cursor: string | null = null;
  do {
    const query: string = cursor === null ? "" : `&cursor=${cursor}`;
    const page = expectData(
      await api(`/api/chats?limit=${limit}${query}`, { token: user.token }),
      200,
      ChatPageSchema,
    );
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor !== null);
  return items;
}

/** Opens one of `user`'s chats by id with a fresh connect ticket. */
export async function openChat(user: SignedUpUser, id: string): Promise<TestSocket> {
  const ticket = await requestTicket(user.token, "chat-agent", id);
  if (ticket.status !== 201) throw new Error(`ticket refused: ${ticket.status} ${ticket.text}`);
  return connectWS(`${chatPath(id)}?ticket=${encodeURIComponent(ticket.body.data.ticket)}`);
}

// What the Agents SDK writes into any new instance, before anyone uses it: versions of its own schema.
const SDK_BOOKKEEPING = /^cf_agents:[a-z_]*schema_version$/;

/** What an agent instance stores: rows per table (empty tables left out), keys, and its alarm. */
export function storedIn(
  namespace: DurableObjectNamespace<ChatAgent> | DurableObjectNamespace<TodoFeedAgent>,
  name: string,
) {
  const stub = namespace.getByName(name) as DurableObjectStub<ChatAgent | TodoFeedAgent>;
  return runInDurableObject(stub, async (_agent, state) => {
    const tables = state.storage.sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'",
      )
      .toArray();
    const rows: Record<string, number> = {};
    for (const { name: table } of tables) {
      const n = state.storage.sql.exec<{ n: number }>(`SELECT count(*) AS n FROM "${table}"`).one().n;
      if (n > 0) rows[table] = n;
    }
    const keys = [...(await state.storage.list()).keys()].filter((key) => !SDK_BOOKKEEPING.test(key));
    return { rows, keys, alarm: await state.storage.getAlarm() };
  });
}

/** Storage that holds nothing: no row, no key but the SDK's schema versions, no alarm. */
export const WIPED = { rows: {}, keys: [], alarm: null };

export const chatStorage = (name: string) => storedIn(env.ChatAgent, name);
export const feedStorage = (name: string) => storedIn(env.TodoFeedAgent, name);
