// docs/security.md E11: which images of a chat answer the React client loads (examples/react-client).
import { describe, expect, it } from "vitest";
import { answerImage } from "../../examples/react-client/src/agents/answer-image";

const API = "https://api.example.com";
const PAGE = "https://app.example.com/#/chat";

describe("answerImage", () => {
  it("loads only the service's own images", () => {
    expect(answerImage(`${API}/api/download/chart.png`, API, PAGE)).toEqual({
      kind: "image",
      src: `${API}/api/download/chart.png`,
    });
  });

  it("turns any other host's image into a link naming that host, so nothing loads unasked", () => {
    const leak = "https://elsewhere.example/?d=secret%20file%20text";
    for (const [src, host] of [
      [leak, "elsewhere.example"],
      // Protocol-relative and look-alike URLs pass react-markdown's URL filter: resolved, they name their host.
      ["//elsewhere.example/x.png", "elsewhere.example"],
      [`${API}@elsewhere.example/x.png`, "elsewhere.example"],
      ["https://api.example.com.elsewhere.example/x.png", "api.example.com.elsewhere.example"],
      ["http://api.example.com/x.png", "api.example.com"],
      ["https://api.example.com:8443/x.png", "api.example.com:8443"],
      // Relative to the page: the page's host, not the service.
      ["/favicon.svg", "app.example.com"],
    ] as const) {
      expect(answerImage(src, API, PAGE), src).toMatchObject({ kind: "link", host });
    }
    expect(answerImage(leak, API, PAGE)).toEqual({ kind: "link", href: leak, host: "elsewhere.example" });
  });

  it("shows nothing for an empty, unparsable or non-web URL", () => {
    for (const src of [
      undefined,
      "",
      "http://",
      "ftp://elsewhere.example/x.png",
      "mailto:a@elsewhere.example",
    ]) {
      expect(answerImage(src, API, PAGE), String(src)).toEqual({ kind: "none" });
    }
  });
});
