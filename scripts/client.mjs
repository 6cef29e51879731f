// `npm run client` starts the Vite dev server of examples/react-client (installing it first when needed)
// at http://localhost:5173/app/, with hot reload, passing on its options (`npm run client -- --port 8882`:
// nothing else to set, it proxies to the service); `npm run client:types` regenerates its REST types
// from openapi.json.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { CLIENT_DIR, ensureClientInstalled, TYPES_ARGS } from "./lib/react-client.mjs";

const COMMANDS = {
  dev: ["vite/bin/vite.js"],
  // Request fields with a default stay optional (the service fills them in).
  types: ["openapi-typescript/bin/cli.js", ...TYPES_ARGS],
};
const given = process.argv.slice(2);
// Options alone (`--port 8882`) are the dev server's.
const [name, ...rest] = given[0] === undefined || given[0].startsWith("-") ? ["dev", ...given] : given;
const command = COMMANDS[name];
if (!command) {
  console.error(
    `Unknown command "${name}": use ${Object.keys(COMMANDS).join(" or ")}, or pass Vite options.`,
  );
  process.exit(1);
}

ensureClientInstalled();
const [script, ...args] = command;
const child = spawn(process.execPath, [join(CLIENT_DIR, "node_modules", script), ...args, ...rest], {
  cwd: CLIENT_DIR,
  // Vite's notice about a config loader it may use one day is no news to a person starting the app.
  env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: "true" },
  stdio: "inherit",
});
child.on("exit", (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
