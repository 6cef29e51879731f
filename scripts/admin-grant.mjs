// Promotes a user to admin: `npm run admin:grant -- <username> [--remote] [--persist-to DIR]`.
// Admins are made only here, by an operator, never through the API.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { ROOT } from "./lib/wrangler-dev.mjs";

const USERNAME = /^[A-Za-z0-9_.-]{3,32}$/;

/** The users_table.usernameKey for a username, or null when it cannot be a username at all. */
export function usernameKeyOf(input) {
  const username = input.trim().normalize("NFKC");
  return USERNAME.test(username) ? username.toLowerCase() : null;
}

// The key matched USERNAME, so it holds no quote; the doubling is a second line of defence.
export function grantSql(key) {
  const literal = `'${key.replaceAll("'", "''")}'`;
  return (
    "UPDATE users_table SET role = 'admin', " +
    "updatedAt = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') " +
    `WHERE usernameKey = ${literal} RETURNING id, username, role`
  );
}

function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { remote: { type: "boolean", default: false }, "persist-to": { type: "string" } },
  });
  const [username, ...extra] = positionals;
  if (!username || extra.length > 0) {
    console.error("Usage: npm run admin:grant -- <username> [--remote] [--persist-to DIR]");
    return 2;
  }
  const key = usernameKeyOf(username);
  if (!key) {
    console.error(`Not a valid username: ${JSON.stringify(username)}`);
    return 2;
  }
  const args = [
    join(ROOT, "node_modules", "wrangler", "bin", "wrangler.js"),
    "d1",
    "execute",
    "DB",
    values.remote ? "--remote" : "--local",
    "--json",
    "--command",
    grantSql(key),
  ];
  if (values["persist-to"]) args.push("--persist-to", values["persist-to"]);
  const result = spawnSync(process.execPath, args, {
    cwd: ROOT,
    encoding: "utf8",
    env: { ...process.env, WRANGLER_SEND_METRICS: "false" },
  });
  if (result.status !== 0) {
    console.error(result.stderr || result.stdout);
    if (/no such table/.test(result.stdout))
      console.error("Apply the migrations first: npm run db:migrate:local");
    return 1;
  }
  const rows = JSON.parse(result.stdout).flatMap((statement) => statement.results ?? []);
  const where = values.remote ? "remote" : "local";
  if (rows.length === 0) {
    console.log(`No user named ${JSON.stringify(username)} in the ${where} database; nothing changed.`);
    return 3;
  }
  for (const row of rows) console.log(`${row.username} (id ${row.id}) is now admin (${where} database).`);
  return 0;
}

if (import.meta.main ?? process.argv[1] === import.meta.filename) process.exitCode = main();
