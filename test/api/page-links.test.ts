// E-mailed links open the React client on the origin the request came to (`<origin>/app/#/...`), unless
// PASSWORD_RESET_URL or EMAIL_CONFIRM_URL names a page; a named page without `{token}` (what an
// unquoted `#` in .dev.vars leaves) stops the service at its first request, saying how to fix it.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import app from "../../src/app";
import { registration } from "../helpers/auth";
import { freshIp } from "../helpers/client-ip";
import { sentTo } from "../helpers/email";
import { expectError, readResult } from "../helpers/http";

/** A request as it reaches the Worker at `origin`, through app.fetch with some vars replaced. */
async function fetchAt(origin: string, path: string, json: unknown, vars: Partial<Env> = {}) {
  const ctx = createExecutionContext();
  const res = await app.fetch(
    new Request(new URL(path, origin), {
      method: "POST",
      headers: { "Content-Type": "application/json", "CF-Connecting-IP": freshIp() },
      body: JSON.stringify(json),
    }),
    { ...env, ...vars },
    ctx,
  );
  await waitOnExecutionContext(ctx);
  return readResult(res);
}

/** The link of the last e-mail to `to` with `subject`. */
async function linkTo(to: string, subject: string): Promise<string> {
  const mail = (await sentTo(to)).filter((email) => email.subject === subject).at(-1);
  const link = mail && /https?:\/\/\S+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no link e-mailed to ${to}`);
  return link;
}

describe("e-mailed links", () => {
  it("open the client on the request's origin: <origin>/app/#/confirm-email and #/reset-password", async () => {
    const origin = "http://127.0.0.1:8931";
    const input = registration();
    expect((await fetchAt(origin, "/api/register", input)).status).toBe(201);
    expect(await linkTo(input.email, "Confirm your e-mail address")).toMatch(
      /^http:\/\/127\.0\.0\.1:8931\/app\/#\/confirm-email\?token=[\w-]{43}$/,
    );

    const other = "http://localhost:8882";
    expect((await fetchAt(other, "/api/auth/password-reset", { email: input.email })).status).toBe(202);
    expect(await linkTo(input.email, "Reset your password")).toMatch(
      /^http:\/\/localhost:8882\/app\/#\/reset-password\?token=[\w-]{43}$/,
    );
  });

  it("go to a configured page with {token} replaced, when one is set", async () => {
    const input = registration();
    const vars = {
      PASSWORD_RESET_URL: "https://app.example.test/#/reset?token={token}&from=mail",
      EMAIL_CONFIRM_URL: "https://app.example.test/confirm/{token}",
    };
    expect((await fetchAt("http://localhost:8787", "/api/register", input, vars)).status).toBe(201);
    expect(await linkTo(input.email, "Confirm your e-mail address")).toMatch(
      /^https:\/\/app\.example\.test\/confirm\/[\w-]{43}$/,
    );
    await fetchAt("http://localhost:8787", "/api/auth/password-reset", { email: input.email }, vars);
    expect(await linkTo(input.email, "Reset your password")).toMatch(
      /^https:\/\/app\.example\.test\/#\/reset\?token=[\w-]{43}&from=mail$/,
    );
  });
});

afterEach(() => vi.restoreAllMocks());

describe("a configured page without {token}", () => {
  it("is refused on every route with a message naming the var and how to quote a # in .dev.vars", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    vi.spyOn(console, "warn").mockImplementation(() => {});
    // What dotenv leaves of an unquoted PASSWORD_RESET_URL=http://localhost:5173/#/reset-password?token={token}
    for (const [name, value] of [
      ["PASSWORD_RESET_URL", "http://localhost:5173/"],
      ["EMAIL_CONFIRM_URL", "https://app.example.test/confirm"],
    ] as const) {
      for (const path of ["/health", "/api/login", "/app/"]) {
        const res = await fetchAt("http://localhost:8787", path, {}, { [name]: value });
        const error = expectError(res, 500);
        expect(error.message).toContain(`Misconfigured: ${name} (${JSON.stringify(value)}) has no {token}`);
        expect(error.message).toContain(`${name}="https://app.example.com/#/page?token={token}"`);
      }
    }
    expect(String(logged.mock.calls[0]?.[0])).toContain("settings_invalid");
  });

  it("is fine when blank: links then take the default", async () => {
    const res = await fetchAt("http://localhost:8787", "/api/login", {}, { PASSWORD_RESET_URL: "  " });
    expect(res.status).toBe(400);
  });
});
