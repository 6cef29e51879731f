// `npm run client` starts the Vite dev server of examples/react-client (installing it first when needed);
// `npm run client:types` regenerates its REST types from openapi.json.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { CLIENT_DIR, ensureClientInstalled, TYPES_ARGS } from "./lib/react-client.mjs";

const COMMANDS = {
  dev: ["vite/bin/vite.js"],
  // Request fields with a default stay optional (the service fills them in).
  types: ["openapi-typescript/bin/cli.js", ...TYPES_ARGS],
};
const [name = "dev", ...rest] = process.argv.slice(2);
const command = COMMANDS[name];
if (!command) throw new Error(`Unknown command ${name}; use one of ${Object.keys(COMMANDS).join(", ")}`);

ensureClientInstalled();
const [script, ...args] = command;
const child = spawn(process.execPath, [join(CLIENT_DIR, "node_modules", script), ...args, ...rest], {
  cwd: CLIENT_DIR,
  stdio: "inherit",
});
child.on("exit", (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
