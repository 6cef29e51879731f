/** Typed reads of `vars`; defaults match wrangler.jsonc so a missing var never breaks a route. */
export function maxUploadBytes(env: Env): number {
  const parsed = Number(env.MAX_UPLOAD_BYTES);
  return Number.isSafeInteger(parsed) && parsed > 0 ? parsed : 90 * 1024 * 1024;
}

export const DEFAULT_STORAGE_QUOTA_BYTES = 1024 * 1024 * 1024;

/** Bytes of stored files one user may hold (STORAGE_QUOTA_BYTES). */
export function storageQuotaBytes(env: Env): number {
  return positiveInt(env.STORAGE_QUOTA_BYTES, DEFAULT_STORAGE_QUOTA_BYTES);
}

export const DEFAULT_ORG_STORAGE_QUOTA_BYTES = 10 * 1024 * 1024 * 1024;

/** Bytes of stored files one team may hold (ORG_STORAGE_QUOTA_BYTES), apart from its members' own. */
export function orgStorageQuotaBytes(env: Env): number {
  return positiveInt(env.ORG_STORAGE_QUOTA_BYTES, DEFAULT_ORG_STORAGE_QUOTA_BYTES);
}

export const DEFAULT_RESTORE_WINDOW_SECONDS = 24 * 60 * 60;

/** How long a deleted todo or file can be restored (RESTORE_WINDOW_SECONDS), in milliseconds. */
export function restoreWindowMs(env: Env): number {
  return positiveInt(env.RESTORE_WINDOW_SECONDS, DEFAULT_RESTORE_WINDOW_SECONDS) * 1000;
}

export function flag(value: string | undefined): boolean {
  return value?.trim().toLowerCase() === "true";
}

function text(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function positiveInt(value: string | undefined, fallback: number): number {
  const parsed = Number(value);
  return Number.isSafeInteger(parsed) && parsed > 0 ? parsed : fallback;
}

// Reasoning models with function calling on Workers AI (QwQ-32B has no tool calls), tried in order.
export const DEFAULT_CHAT_MODELS = ["@cf/qwen/qwen3-30b-a3b-fp8", "@cf/meta/llama-4-scout-17b-16e-instruct"];
export const DEFAULT_PROBE_MODEL = "@cf/meta/llama-3.2-1b-instruct";
export const DEFAULT_TITLE_MODEL = "@cf/meta/llama-3.2-1b-instruct";

/** A comma-separated list of names, without blanks or repeats. */
export function nameList(value: string | undefined): string[] {
  return [...new Set((value ?? "").split(",").map((name) => name.trim()))].filter(Boolean);
}

/** The chat's models in the order they are tried (CHAT_MODELS). */
export function chatModelNames(env: Env): string[] {
  const names = nameList(env.CHAT_MODELS);
  return names.length > 0 ? names : DEFAULT_CHAT_MODELS;
}

/** Whether the chat models take images (CHAT_MODEL_IMAGES): attached images reach it, or a note does. */
export function chatModelTakesImages(env: Env): boolean {
  return flag(env.CHAT_MODEL_IMAGES);
}

export function probeModelName(env: Env): string {
  return text(env.PROBE_MODEL) ?? DEFAULT_PROBE_MODEL;
}

export function titleModelName(env: Env): string {
  return text(env.TITLE_MODEL) ?? DEFAULT_TITLE_MODEL;
}

export interface OpenAICompatibleSettings {
  baseURL: string;
  /** AI_MODEL: the first one answers the probe and titles; the chat tries them in order. */
  models: string[];
  apiKey: string | undefined;
}

/** An OpenAI-compatible endpoint, when AI_BASE_URL is set; otherwise the Workers AI binding is used. */
export function openAICompatible(env: Env): OpenAICompatibleSettings | undefined {
  const baseURL = text(env.AI_BASE_URL);
  if (!baseURL) return undefined;
  return { baseURL, models: nameList(env.AI_MODEL), apiKey: text(env.AI_API_KEY) };
}

/**
 * AI_DEMO=true: the offline demo model answers every model call (src/ai/demo-model.ts). `npm run dev`
 * sets it when no model is configured; a deployment has it only when its settings say so.
 */
export function aiDemo(env: Env): boolean {
  return flag(env.AI_DEMO);
}

export function probeTimeoutMs(env: Env): number {
  return positiveInt(env.AI_PROBE_TIMEOUT_MS, 10_000);
}

export function agentsRequireAuth(env: Env): boolean {
  return flag(env.AGENTS_REQUIRE_AUTH);
}

export const DEFAULT_CHAT_DAILY_OUTPUT_TOKENS = 200_000;

/** Output tokens one public chat (a chat without an owner) may spend per UTC day (CHAT_DAILY_OUTPUT_TOKENS). */
export function chatDailyOutputTokens(env: Env): number {
  return positiveInt(env.CHAT_DAILY_OUTPUT_TOKENS, DEFAULT_CHAT_DAILY_OUTPUT_TOKENS);
}

export const DEFAULT_CHAT_ANON_DAILY_OUTPUT_TOKENS = 1_000_000;

/** Output tokens all chats without an owner may spend together per UTC day (CHAT_ANON_DAILY_OUTPUT_TOKENS). */
export function chatAnonDailyOutputTokens(env: Env): number {
  return positiveInt(env.CHAT_ANON_DAILY_OUTPUT_TOKENS, DEFAULT_CHAT_ANON_DAILY_OUTPUT_TOKENS);
}

export const DEFAULT_CHAT_USER_DAILY_OUTPUT_TOKENS = 200_000;

/** Output tokens one user may spend per UTC day over all their chats (CHAT_USER_DAILY_OUTPUT_TOKENS). */
export function chatUserDailyOutputTokens(env: Env): number {
  return positiveInt(env.CHAT_USER_DAILY_OUTPUT_TOKENS, DEFAULT_CHAT_USER_DAILY_OUTPUT_TOKENS);
}

export const DEFAULT_ROUTE_CACHE_TTL_MS = 30_000;

/** How long an isolate remembers a ready workspace's route (ROUTE_CACHE_TTL_MS; src/db/route-cache.ts). */
export function routeCacheTtlMs(env: Env): number {
  return positiveInt(env.ROUTE_CACHE_TTL_MS, DEFAULT_ROUTE_CACHE_TTL_MS);
}

export const DEFAULT_REQUEST_MAX_MS = 30_000;

/**
 * How long a move waits after claiming a workspace before fencing it, and after switching it before
 * deleting the source's rows: every route remembered before expires, and every request that read one
 * has ended (REQUEST_MAX_MS: the longest a request goes on with a route it read).
 */
export function routeSettleMs(env: Env): number {
  return routeCacheTtlMs(env) + positiveInt(env.REQUEST_MAX_MS, DEFAULT_REQUEST_MAX_MS);
}
