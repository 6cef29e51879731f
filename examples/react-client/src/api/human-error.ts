import type { components } from "./schema";
import { ApiError } from "./client";

type Issue = components["schemas"]["ValidationIssue"];

/** What a person reads, and the service's own words for whoever debugs it. */
export interface HumanError {
  message: string;
  detail: string | null;
}

/** Field names as people say them; a form may pass its own. */
const FIELD_NAMES: Record<string, string> = {
  title: "title",
  description: "description",
  username: "username",
  password: "password",
  currentPassword: "current password",
  name: "name",
  email: "email address",
  age: "age",
  scopes: "permissions",
  expiresAt: "expiry date",
  expiresIn: "expiry",
  maxDownloads: "download limit",
};

// Service messages that are already meant for people, or have a plainer equivalent.
const KNOWN: [RegExp, string][] = [
  [/^Invalid username or password$/, "That username and password don't match an account."],
  [/^Current password is incorrect$/, "Your current password isn't right."],
  [/^A user with this (\w+) already exists$/, "An account already uses this $1."],
  [/^Invalid or expired reset link/, "This reset link has expired or was already used. Ask for a new one."],
  [/^Invalid or expired link/, "This link has expired or was already used. Ask for a new one."],
  [/^Too many requests/, "Too many attempts. Wait a minute, then try again."],
  [/^File too large/, "That file is larger than the service accepts in one go."],
  [/quota/i, "You're out of storage space. Delete some files, then try again."],
  [/^Link expired$/, "This link has expired."],
  [/^Passkey (sign-in|registration) expired/, "That took too long. Try again."],
  [/^Passkey challenge/, "That passkey request was already used or isn't valid. Try again."],
  [/^Passkey not accepted/, "That passkey didn't work here. Try another, or sign in with your password."],
  [/^This passkey is already registered/, "This passkey is already registered."],
  [/^At most \d+ passkeys/, "You have as many passkeys as allowed. Delete one first."],
];

const article = (word: string) => (/^[aeiou]/i.test(word) ? `an ${word}` : `a ${word}`);

function issueSentence(issue: Issue, names: Record<string, string>): string {
  const key = String(issue.path.at(-1) ?? "");
  const field = names[key] ?? FIELD_NAMES[key] ?? (key || "entry");
  const limit = /(?:>=|<=)\s*(\d+)/.exec(issue.message)?.[1];
  if (/blank|required|empty/i.test(issue.message)) return `Enter ${article(field)}.`;
  if (issue.code === "too_small") {
    return limit ? `The ${field} needs at least ${limit} characters.` : `The ${field} is too short.`;
  }
  if (issue.code === "too_big") {
    return limit ? `The ${field} can have at most ${limit} characters.` : `The ${field} is too long.`;
  }
  if (issue.code === "invalid_format" || issue.code === "invalid_string") return `Enter a valid ${field}.`;
  return `Check the ${field}.`;
}

// A chat turn's error text (not an API call's): the service says it for people, then for developers.
const CHAT_NO_MODEL = /^(No AI model is connected[^.]*\.)\s*(?:For developers:\s*)?([\s\S]*)$/;

/** Plain words for any failure; the API's own message stays available as `detail`. */
export function humanError(error: unknown, names: Record<string, string> = {}): HumanError {
  if (!(error instanceof ApiError)) {
    const message = error instanceof Error ? error.message : String(error);
    const noModel = CHAT_NO_MODEL.exec(message);
    if (noModel) return { message: noModel[1]!, detail: noModel[2] || null };
    return { message, detail: null };
  }
  const detail = error.status ? `HTTP ${error.status}: ${error.message}` : error.message;
  for (const [pattern, words] of KNOWN) {
    const match = pattern.exec(error.message);
    if (match) return { message: words.replace("$1", match[1] ?? ""), detail };
  }
  const issue = error.issues[0];
  if (error.status === 400 && issue) return { message: issueSentence(issue, names), detail };
  const byStatus: Record<number, string> = {
    0: "Can't reach the service. Check your connection, then try again.",
    401: "Your session has ended. Sign in again.",
    403: "You don't have permission to do that.",
    404: "It isn't there any more: it may have been deleted elsewhere.",
    409: error.message,
    413: "That's more than the service accepts.",
    429: "Too many attempts. Wait a minute, then try again.",
  };
  const message =
    byStatus[error.status] ??
    (error.status >= 500 ? "Something went wrong on the service. Try again in a moment." : error.message);
  return { message, detail };
}
