// docs/security.md W3: where passkeys may be used comes from settings, with defaults for localhost and
// for a deployed host.
import { describe, expect, it } from "vitest";
import { relyingParty } from "../../src/auth/passkeys/relying-party";

const unset = { PASSKEY_RP_ID: "", PASSKEY_RP_NAME: "", PASSKEY_ORIGINS: "", CORS_ORIGINS: "" };

describe("relyingParty", () => {
  it("defaults to the host the API is called on, its origin and CORS_ORIGINS", () => {
    expect(relyingParty(unset, "https://api.example.com/api/passkeys")).toEqual({
      id: "api.example.com",
      name: "Workers API Service",
      origins: ["https://api.example.com"],
    });
    const dev = { ...unset, CORS_ORIGINS: " http://localhost:5173 ,http://localhost:8787" };
    expect(relyingParty(dev, "http://localhost:8787/api/auth/passkey/options")).toMatchObject({
      id: "localhost",
      origins: ["http://localhost:8787", "http://localhost:5173"],
    });
  });

  it("takes localhost for a loopback address, which can be no RP id", () => {
    expect(relyingParty(unset, "http://127.0.0.1:8787/x").id).toBe("localhost");
    expect(relyingParty(unset, "http://[::1]:8787/x").id).toBe("localhost");
  });

  it("uses PASSKEY_RP_ID, PASSKEY_ORIGINS and PASSKEY_RP_NAME as set, without the defaults", () => {
    const set = {
      PASSKEY_RP_ID: " example.com ",
      PASSKEY_RP_NAME: "Example",
      PASSKEY_ORIGINS: "https://app.example.com, https://www.example.com",
      CORS_ORIGINS: "https://other.example",
    };
    expect(relyingParty(set, "https://api.example.com/x")).toEqual({
      id: "example.com",
      name: "Example",
      origins: ["https://app.example.com", "https://www.example.com"],
    });
  });
});
