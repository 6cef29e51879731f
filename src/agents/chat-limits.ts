// Runs in the Durable Object: the chat agent's per-turn limits and daily token ledger.
import type { Connection } from "agents";
import { clientIp, consume, LimiterUnavailableError, RateLimitedError } from "../core/rate-limit";
import { CALLER_HEADER } from "./agent-request";
import { ownerIdFromChatName } from "../auth/chat-names";

/** What the client reads when a turn is refused. A refused turn makes no model call. */
export const TURN_REFUSALS = {
  budget: "This chat has used its output-token budget for today (UTC). It answers again tomorrow.",
  userBudget:
    "You have used your output-token budget for today (UTC) across all your chats. They answer again after midnight UTC.",
  anonBudget:
    "Public chats have used today's output-token budget (UTC). Sign in to use your own, or try again after midnight UTC.",
  newChat: "Too many new chats from your address. Wait a minute, or continue a chat you have.",
  connection: "Too many messages on this connection. Wait a minute, then send again.",
  caller: "Too many messages. Wait a minute, then send again.",
  unavailable: "The chat cannot check its limits right now. Try again shortly.",
} as const;

export type TurnRefusal = keyof typeof TURN_REFUSALS;
export type TurnAdmission =
  | { ok: true; maxOutputTokens: number; outputTokensLeft: number }
  | { ok: false; refusal: TurnRefusal };

interface CallerState {
  caller?: string;
}

/** Keeps who opened `connection` (stated by the Worker gate) in its state, which survives hibernation. */
export function rememberCaller(connection: Connection, upgrade: Request): void {
  const caller = upgrade.headers.get(CALLER_HEADER) ?? `ip:${clientIp(upgrade.headers)}`;
  connection.setState((previous: unknown) => ({
    ...(previous !== null && typeof previous === "object" ? previous : {}),
    caller,
  }));
}

// A turn started without a connection (scheduled by the server) counts against the chat's owner.
function callerKey(instance: string, connection: Connection | undefined): string {
  const remembered = (connection?.state as CallerState | null | undefined)?.caller;
  if (remembered) return remembered;
  const owner = ownerIdFromChatName(instance);
  return owner === null ? `instance:${instance}` : `user:${owner}`;
}

const utcDay = (now = new Date()) => now.toISOString().slice(0, 10);

/** Output tokens a public chat (no owner) spent per UTC day, kept in the instance's own SQLite. */
export class DailyTokenLedger {
  constructor(private readonly sql: SqlStorage) {
    sql.exec("CREATE TABLE IF NOT EXISTS chat_output_tokens (day TEXT PRIMARY KEY, tokens INTEGER NOT NULL)");
  }

  spent(day = utcDay()): number {
    const [row] = this.sql
      .exec<{ tokens: number }>("SELECT tokens FROM chat_output_tokens WHERE day = ?", day)
      .toArray();
    return row?.tokens ?? 0;
  }

  add(tokens: number, day = utcDay()): void {
    if (!(tokens > 0)) return;
    // Only today's row is ever read: earlier days go as soon as a new one starts.
    this.sql.exec("DELETE FROM chat_output_tokens WHERE day <> ?", day);
    this.sql.exec(
      "INSERT INTO chat_output_tokens (day, tokens) VALUES (?, ?) ON CONFLICT(day) DO UPDATE SET tokens = tokens + excluded.tokens",
      day,
      Math.ceil(tokens),
    );
  }
}

async function spend(limiter: RateLimit, key: string): Promise<"ok" | "limited" | "unavailable"> {
  try {
    await consume(limiter, key);
    return "ok";
  } catch (err) {
    if (err instanceof RateLimitedError) return "limited";
    if (err instanceof LimiterUnavailableError) return "unavailable";
    throw err;
  }
}

/** What a turn may still spend today, and the refusal when nothing is left. */
export interface TurnBudget {
  /** Output tokens left today, and the refusal of the budget that binds; throws when they cannot be read. */
  left(): Promise<{ tokens: number; refusal: "budget" | "userBudget" | "anonBudget" }>;
  /** A chat without an owner starting its day's budget: it counts against PUBLIC_CHAT_LIMITER. */
  opensPublicBudget: boolean;
}

/**
 * Whether one more turn may call the model: today's budget (the owner's, or a public chat's own) has
 * tokens left, then one unit per connection (CHAT_CONNECTION_LIMITER) and per user or IP
 * (CHAT_CALLER_LIMITER), and, for a public chat's first spending of the day, one new public chat per
 * user or IP (PUBLIC_CHAT_LIMITER). An admitted turn asks for at most what is left of the budget, over all its steps.
 */
export async function admitTurn(
  env: Env,
  turn: {
    instance: string;
    connection: Connection | undefined;
    budget: TurnBudget;
    maxOutputTokens: number;
  },
): Promise<TurnAdmission> {
  let left: number;
  try {
    const budget = await turn.budget.left();
    if (budget.tokens <= 0) return { ok: false, refusal: budget.refusal };
    left = budget.tokens;
  } catch {
    return { ok: false, refusal: "unavailable" };
  }
  if (turn.connection) {
    const verdict = await spend(
      env.CHAT_CONNECTION_LIMITER,
      `chat-connection:${turn.instance}:${turn.connection.id}`,
    );
    if (verdict !== "ok") return { ok: false, refusal: verdict === "limited" ? "connection" : "unavailable" };
  }
  const caller = callerKey(turn.instance, turn.connection);
  const verdict = await spend(env.CHAT_CALLER_LIMITER, `chat-caller:${caller}`);
  if (verdict !== "ok") return { ok: false, refusal: verdict === "limited" ? "caller" : "unavailable" };
  if (turn.budget.opensPublicBudget) {
    const opened = await spend(env.PUBLIC_CHAT_LIMITER, `public-chat:${caller}`);
    if (opened !== "ok") return { ok: false, refusal: opened === "limited" ? "newChat" : "unavailable" };
  }
  return { ok: true, maxOutputTokens: Math.min(turn.maxOutputTokens, left), outputTokensLeft: left };
}
