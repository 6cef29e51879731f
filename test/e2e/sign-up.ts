import { expect } from "vitest";

export interface RegisteredUser {
  userId: number;
  username: string;
  token: string;
}

/** Registers a fresh user on a running service (POST /api/register) and returns its login result. */
export async function signUpAt(baseUrl: string): Promise<RegisteredUser> {
  const username = `e2e_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const res = await fetch(`${baseUrl}/api/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      username,
      password: `pw-${crypto.randomUUID()}`,
      name: "E2E",
      email: `${username}@example.test`,
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: RegisteredUser }).data;
}
