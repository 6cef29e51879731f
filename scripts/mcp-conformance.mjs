// Runs the official MCP server conformance suite (@modelcontextprotocol/conformance) against /mcp on
// `wrangler dev --local`. /mcp needs a login token and the referee sends none, so a loopback proxy
// adds `Authorization: Bearer <token>` of a freshly registered user to every request.
// Usage: npm run mcp:conformance [-- <scenario> ...]   (default: the scenarios of the features /mcp offers)
import { spawn } from "node:child_process";
import { createServer, request as httpRequest } from "node:http";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { signUp } from "./lib/sign-up.mjs";
import { ROOT, freePort, startWranglerDev } from "./lib/wrangler-dev.mjs";

// Tools only: no resources, prompts, completions, logging, sampling or elicitation are offered (so
// `caching`, which also lists prompts and resources, is left out; its tools/list check passes).
const SCENARIOS = [
  "server-initialize",
  "ping",
  "tools-list",
  "server-stateless",
  "dns-rebinding-protection",
  "http-header-validation",
];
const CLI = join(ROOT, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");

/** Forwards every request unchanged (Host included) to `target`, adding the bearer token. */
async function authProxy(target, token) {
  const { hostname, port } = new URL(target);
  const server = createServer((req, res) => {
    const upstream = httpRequest(
      {
        hostname,
        port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, authorization: `Bearer ${token}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  const proxyPort = await freePort();
  await new Promise((resolve) => server.listen(proxyPort, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${proxyPort}/mcp`, close: () => server.close() };
}

// Checks that need the referee's own fixture tools (test_logging_tool and the like) cannot run
// against a server that does not offer them; the referee reports them as failures.
const FIXTURE_ONLY = /Not testable: server does not list the diagnostic tool/g;

function classify(output) {
  const text = stripVTControlCharacters(output);
  const totals = text.match(/Passed: (\d+)\/(\d+)/);
  const failed = (text.match(/\] FAILURE /g) ?? []).length;
  const notApplicable = (text.match(FIXTURE_ONLY) ?? []).length;
  return {
    checks: totals ? `${totals[1]}/${totals[2]} checks` : "",
    notApplicable,
    passed: failed === notApplicable,
  };
}

function runScenario(url, scenario) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, "server", "--url", url, "--scenario", scenario], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    child.on("exit", (code) => resolve({ scenario, exitCode: code, output, ...classify(output) }));
  });
}

const scenarios = process.argv.slice(2).length ? process.argv.slice(2) : SCENARIOS;
const worker = await startWranglerDev();
let proxy;
try {
  proxy = await authProxy(worker.url, (await signUp(worker.url)).token);
  const results = [];
  for (const scenario of scenarios) {
    const result = await runScenario(proxy.url, scenario);
    results.push(result);
    const note = result.notApplicable ? ` (${result.notApplicable} fixture-only checks not applicable)` : "";
    console.log(`${result.passed ? "PASS" : "FAIL"}  ${scenario}  ${result.checks}${note}`);
    if (!result.passed || process.env.VERBOSE) console.log(result.output);
  }
  const passed = results.filter((r) => r.passed).length;
  console.log(`\n${passed}/${results.length} scenarios passed`);
  process.exitCode = passed === results.length ? 0 : 1;
} finally {
  proxy?.close();
  await worker.stop();
}
