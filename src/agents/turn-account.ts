// Runs in the chat Durable Object, loaded with the turn: who pays for a turn, whether they still may,
// which models answer it, and what it cost (the chat turn calls it; src/agents/chat-turn.ts).
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { getCurrentAgent } from "agents";
import { chatAnonDailyOutputTokens, chatDailyOutputTokens, chatUserDailyOutputTokens } from "../core/config";
import type { Logger } from "../core/logger";
import type { Db } from "../db/client";
import { openDatabases } from "../db/databases";
import { userOwner } from "../core/owner";
import { modelChain } from "../ai/model-chain";
import { chatModels } from "../ai/models";
import { addAnonOutputTokens, anonOutputTokensOn, insertUsage, outputTokensOn } from "../usage/usage.queries";
import { utcDay } from "../usage/usage-days";
import { chatOwnerOf } from "./chat-owner";
import { admitTurn, type DailyTokenLedger, type TurnBudget, type TurnRefusal } from "./chat-limits";
import { type MeteredCall, TurnMeter } from "./turn-meter";

/** The chat instance a turn answers for. */
export interface TurnPayer {
  env: Env;
  name: string;
  ledger: DailyTokenLedger;
}

export type TurnAccount =
  | { ok: false; refusal: TurnRefusal }
  | {
      ok: true;
      /** Whose chat it is (chat-owner.ts): the tools and file parts act as this user, or as nobody. */
      owner: number | null;
      /** The first model call's bound: the step bound, or less when less is left today. */
      maxOutputTokens: number;
      /** What is left of today's budget when the turn starts: all its model calls together stay within it. */
      outputTokensLeft: number;
      /** The chat's models in order (CHAT_MODELS); built inside the stream, where a failure becomes an error frame. */
      model(): LanguageModelV4;
      meter: TurnMeter;
    };

// A chat with an owner spends from the owner's day over all their chats (D1); a public one from its
// own, and from the day of all public chats together (D1), whichever has less left.
function budgetOf(chat: TurnPayer, db: Db, owner: number | null, now: Date): TurnBudget {
  if (owner === null) {
    const spent = chat.ledger.spent();
    return {
      opensPublicBudget: spent === 0,
      left: async () => {
        const own = chatDailyOutputTokens(chat.env) - spent;
        const all = chatAnonDailyOutputTokens(chat.env) - (await anonOutputTokensOn(db, utcDay(now)));
        return all < own ? { tokens: all, refusal: "anonBudget" } : { tokens: own, refusal: "budget" };
      },
    };
  }
  return {
    opensPublicBudget: false,
    left: async () => ({
      tokens: chatUserDailyOutputTokens(chat.env) - (await outputTokensOn(db, owner, utcDay(now))),
      refusal: "userBudget",
    }),
  };
}

/** Books each call of a turn: on the owner's usage in D1, or in a public chat's own ledger. */
function bookerOf(chat: TurnPayer, db: Db, owner: number | null, logger: Logger) {
  return async (call: MeteredCall) => {
    if (owner === null) {
      chat.ledger.add(call.outputTokens);
      try {
        await addAnonOutputTokens(db, utcDay(new Date()), call.outputTokens);
      } catch (err) {
        logger.error("chat_anon_usage_write_failed", { call, error: String(err) });
      }
      return;
    }
    try {
      await insertUsage(db, [
        { ...call, userId: owner, chatId: chat.name, kind: "chat", day: utcDay(new Date()) },
      ]);
    } catch (err) {
      // The answer stands; its cost is missing from the owner's usage, and the log says so.
      logger.error("chat_usage_write_failed", { owner, call, error: String(err) });
    }
  };
}

/** Admits one turn against its payer's budget and the rate limits, and sets up its models and meter. */
export async function openTurnAccount(
  chat: TurnPayer,
  logger: Logger,
  maxOutputTokens: number,
  now = new Date(),
): Promise<TurnAccount> {
  const dbs = openDatabases(chat.env);
  let owner: number | null;
  // An owner's usage is in their workspace's data database; public chats' day is the directory's.
  let db: Db;
  try {
    owner = await chatOwnerOf(dbs, chat.name);
    db = owner === null ? dbs.directory : await dbs.of(userOwner(owner));
  } catch {
    return { ok: false, refusal: "unavailable" };
  }
  const admission = await admitTurn(chat.env, {
    instance: chat.name,
    connection: getCurrentAgent().connection,
    budget: budgetOf(chat, db, owner, now),
    maxOutputTokens,
  });
  if (!admission.ok) return admission;
  const meter = new TurnMeter(bookerOf(chat, db, owner, logger));
  const model = () =>
    modelChain(chatModels(chat.env), {
      onFailure: (leg, error) =>
        logger.warn("chat_model_failed", { model: leg.modelId, error: String(error) }),
      onAnswer: (leg) => meter.answeredBy(leg.modelId),
    });
  const { maxOutputTokens: first, outputTokensLeft } = admission;
  return { ok: true, owner, maxOutputTokens: first, outputTokensLeft, model, meter };
}
