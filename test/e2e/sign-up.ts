import { expect } from "vitest";
import { fromFreshIp } from "../helpers/client-ip";

export interface RegisteredUser {
  userId: number;
  username: string;
  password: string;
  token: string;
}

/** Registers a fresh user on a running service (POST /api/register): its login result and password. */
export async function signUpAt(baseUrl: string): Promise<RegisteredUser> {
  const username = `e2e_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const password = `pw-${crypto.randomUUID()}`;
  const res = await fetch(`${baseUrl}/api/register`, {
    method: "POST",
    // Each registration from an address of its own: registrations are limited per client IP.
    headers: { "Content-Type": "application/json", ...fromFreshIp() },
    body: JSON.stringify({
      username,
      password,
      name: "E2E",
      email: `${username}@example.test`,
    }),
  });
  expect(res.status).toBe(201);
  return { ...((await res.json()) as { data: Omit<RegisteredUser, "password"> }).data, password };
}
