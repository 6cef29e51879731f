import { expect } from "vitest";
import { fromFreshIp } from "../helpers/client-ip";

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
    // Each registration from an address of its own: registrations are limited per client IP.
    headers: { "Content-Type": "application/json", ...fromFreshIp() },
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
