import { env } from "cloudflare:workers";

/** Every user and credential row, to compare before and after a request that must change nothing. */
export async function snapshotUsers() {
  const users = await env.DB.prepare("SELECT * FROM users_table ORDER BY id").all();
  const credentials = await env.DB.prepare("SELECT * FROM user_credentials_table ORDER BY userId").all();
  return { users: users.results, credentials: credentials.results };
}

export async function userRow(id: number) {
  return env.DB.prepare("SELECT * FROM users_table WHERE id = ?").bind(id).first();
}

export async function countUsersByKey(usernameKey: string): Promise<number> {
  const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM users_table WHERE usernameKey = ?")
    .bind(usernameKey)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

/** What `npm run admin:grant` does, applied to the test database. */
export async function makeAdmin(userId: number) {
  await env.DB.prepare("UPDATE users_table SET role = 'admin' WHERE id = ?").bind(userId).run();
}
