import { api, expectData } from "./http";
import { LoginResultSchema } from "../../src/routes/auth/auth.schemas";

export interface SignUpInput {
  username: string;
  password: string;
  name: string;
  email: string;
  age?: number;
}

export interface SignedUpUser {
  userId: number;
  username: string;
  password: string;
  email: string;
  token: string;
  refreshToken: string;
}

// The password of each user a helper signed up or in, by user id: helpers that create something
// POST /api/keys asks the password for (a key that writes) prove it as a client would.
const passwords = new Map<number, string>();

/** The password a helper signed `userId` up or in with, if one did. */
export const knownPassword = (userId: number): string | undefined => passwords.get(userId);

/** A unique username (storage is shared by the tests of one file, and the limiter across files). */
export function freshUsername(prefix = "u"): string {
  return `${prefix}_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`;
}

export function registration(overrides: Partial<SignUpInput> = {}): SignUpInput {
  const username = overrides.username ?? freshUsername();
  return {
    username,
    password: `pw-${crypto.randomUUID()}`,
    name: "Test User",
    email: `${username.toLowerCase()}@example.test`,
    ...overrides,
  };
}

/** Registers a fresh user through POST /api/register and returns its id, credentials and token. */
export async function signUp(overrides: Partial<SignUpInput> = {}): Promise<SignedUpUser> {
  const input = registration(overrides);
  const res = await api("/api/register", { method: "POST", json: input });
  const { userId, username, token, refreshToken } = expectData(res, 201, LoginResultSchema);
  passwords.set(userId, input.password);
  return { userId, username, password: input.password, email: input.email, token, refreshToken };
}

/** Signs in through POST /api/login: a new session's token and refresh token. */
export async function signIn(username: string, password: string, headers?: HeadersInit) {
  const res = await api("/api/login", { method: "POST", json: { username, password }, headers });
  const result = expectData(res, 201, LoginResultSchema);
  passwords.set(result.userId, password);
  return result;
}

/** Signs in through POST /api/login and returns the token. */
export async function logIn(username: string, password: string): Promise<string> {
  return (await signIn(username, password)).token;
}
