// Runs the official MCP conformance suite (@modelcontextprotocol/conformance) against `wrangler dev --local`:
// - its server scenarios against /mcp, for the features /mcp offers. The referee sends no credentials,
//   so a loopback proxy adds `Authorization: Bearer <token>` to every request: an OAuth access token
//   that this script obtained as an AI client would (registration, consent, S256 PKCE, code for token);
// - its authorization server scenarios (metadata, authorization code grant) at every revision they apply
//   to, with a public client registered for the referee's callback and a scripted person at the consent page.
// Usage: npm run mcp:conformance [-- <server scenario> ...]
import { spawn } from "node:child_process";
import { createServer, request as httpRequest } from "node:http";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { stripVTControlCharacters } from "node:util";
import { consent, oauthTokens } from "./lib/oauth-consent.mjs";
import { signUp } from "./lib/sign-up.mjs";
import { ROOT, freePort, startWranglerDev } from "./lib/wrangler-dev.mjs";

// Tools and the user's files as resources: no prompts, completions, logging, sampling or elicitation
// are offered (so `caching`, which also lists prompts, is left out; its tools and resources checks
// pass). `resources-read-text` and `-binary` read the referee's fixture URIs (`test://static-text`),
// which no user has: left out, as the fixture tools are.
const SERVER_SCENARIOS = [
  "server-initialize",
  "ping",
  "tools-list",
  "resources-list",
  "sep-2164-resource-not-found",
  "server-stateless",
  "dns-rebinding-protection",
  "http-header-validation",
];
// The suite's authorization server scenarios apply to these revisions; each run covers both scenarios.
const AUTHORIZATION_REVISIONS = ["2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"];
const CLI = join(ROOT, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");

/**
 * Forwards every request unchanged (Host included) to `target`, adding the bearer token to those for
 * /mcp. The service names its OAuth resource by the origin a request came to, so the token is obtained
 * through the proxy too.
 */
async function authProxy(target) {
  const { hostname, port } = new URL(target);
  let token = "";
  const server = createServer((req, res) => {
    const headers = { ...req.headers };
    if (req.url?.startsWith("/mcp")) headers.authorization = `Bearer ${token}`;
    const upstream = httpRequest({ hostname, port, path: req.url, method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  });
  const proxyPort = await freePort();
  await new Promise((resolve) => server.listen(proxyPort, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${proxyPort}`;
  return { origin, url: `${origin}/mcp`, useToken: (value) => (token = value), close: () => server.close() };
}

// Checks that need the referee's own fixture tools (test_logging_tool and the like) cannot run
// against a server that does not offer them; the referee reports them as failures.
const FIXTURE_ONLY = /Not testable: server does not list the diagnostic tool/g;

/** One scenario's "Passed: p/n, f failed, w warnings", or a run of several's "Total: p passed, f failed" (checks). */
function classify(output) {
  const text = stripVTControlCharacters(output);
  const single = text.match(/Passed: (\d+)\/(\d+), \d+ failed, (\d+) warnings/);
  const total = text.match(/Total: (\d+) passed, (\d+) failed/);
  const failed = (text.match(/\] FAILURE /g) ?? []).length;
  const notApplicable = (text.match(FIXTURE_ONLY) ?? []).length;
  if (total) {
    const checks = Number(total[1]) + Number(total[2]);
    return {
      checks: `${total[1]}/${checks} checks`,
      warnings: 0,
      notApplicable,
      passed: total[2] === "0",
    };
  }
  return {
    checks: single ? `${single[1]}/${single[2]} checks` : "",
    warnings: Number(single?.[3] ?? 0),
    notApplicable,
    passed: single !== null && failed === notApplicable,
  };
}

/**
 * Runs the CLI; `onLine` sees each line of its output as it comes (the authorization scenario prints
 * the URL to open in a browser and waits for its callback).
 */
function runCli(args, onLine = () => {}) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    for (const stream of [child.stdout, child.stderr]) {
      createInterface({ input: stream }).on("line", (line) => {
        output += `${line}\n`;
        onLine(stripVTControlCharacters(line));
      });
    }
    child.on("exit", (code) => resolve({ exitCode: code, output, ...classify(output) }));
  });
}

/** Both authorization server scenarios at `revision`, the browser step played by a signed-up user. */
async function authorizationScenarios(baseUrl, user, revision) {
  const port = await freePort();
  const registration = await fetch(`${baseUrl}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_name: "MCP conformance referee",
      redirect_uris: [`http://127.0.0.1:${port}/callback`],
      token_endpoint_auth_method: "none",
    }),
  });
  const { client_id } = await registration.json();
  // Resource indicators (RFC 8707) came with 2025-06-18; the referee sends one when given.
  const resource = revision === "2025-03-26" ? [] : ["--resource", `${baseUrl}/mcp`];
  const args = ["authorization", "--url", baseUrl, "--client-id", client_id, "--port", String(port)];
  let browser = Promise.resolve();
  const result = await runCli([...args, ...resource, "--spec-version", revision], (line) => {
    if (!line.startsWith(`${baseUrl}/oauth/authorize?`)) return;
    // The person signs in and allows; the browser then follows the redirect to the referee's callback.
    browser = consent(line, { ...user, write: false, files: false }).then((back) =>
      fetch(back).then((res) => res.text()),
    );
  });
  await browser;
  return { scenario: `authorization ${revision}`, ...result };
}

const serverScenarios = process.argv.slice(2).length ? process.argv.slice(2) : SERVER_SCENARIOS;
const worker = await startWranglerDev();
let proxy;
try {
  const user = await signUp(worker.url);
  proxy = await authProxy(worker.url);
  proxy.useToken((await oauthTokens(proxy.origin, user)).access_token);
  const results = [];
  const report = (result) => {
    results.push(result);
    const notes = [
      result.notApplicable && `${result.notApplicable} fixture-only checks not applicable`,
      result.warnings && `${result.warnings} warnings`,
    ].filter(Boolean);
    const note = notes.length ? ` (${notes.join(", ")})` : "";
    console.log(`${result.passed ? "PASS" : "FAIL"}  ${result.scenario}  ${result.checks}${note}`);
    if (!result.passed || process.env.VERBOSE) console.log(result.output);
  };
  for (const scenario of serverScenarios) {
    report({ scenario, ...(await runCli(["server", "--url", proxy.url, "--scenario", scenario])) });
  }
  for (const revision of AUTHORIZATION_REVISIONS) {
    report(await authorizationScenarios(worker.url, user, revision));
  }
  const passed = results.filter((r) => r.passed).length;
  console.log(`\n${passed}/${results.length} runs passed`);
  process.exitCode = passed === results.length ? 0 : 1;
} finally {
  proxy?.close();
  await worker.stop();
}
