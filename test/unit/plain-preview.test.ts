// The React client's chat list shows previews as plain text (examples/react-client/src/chats/plain-preview.ts).
import { describe, expect, it } from "vitest";
import { plainPreview } from "../../examples/react-client/src/chats/plain-preview";

describe("plainPreview", () => {
  it("drops headings, emphasis, code marks and quotes, keeping the words", () => {
    expect(plainPreview("## Plan for **Friday**: _water_ the `plants` ~~today~~")).toBe(
      "Plan for Friday: water the plants today",
    );
    expect(plainPreview("> Quoted **bold** text")).toBe("Quoted bold text");
    expect(plainPreview("- first item, then *more*")).toBe("first item, then more");
    expect(plainPreview("1. Water the plants 2. Send the report")).toBe(
      "Water the plants 2. Send the report",
    );
  });

  it("keeps a link's text and an image's alt text, never their URLs or HTML", () => {
    expect(plainPreview("See [the docs](https://example.com/docs) and ![a chart](/api/download/c.png)")).toBe(
      "See the docs and a chart",
    );
    expect(plainPreview('Hi <img src=x onerror="alert(1)"> there<br/>')).toBe("Hi there");
    expect(plainPreview("A [reference][1] link")).toBe("A reference link");
  });

  it("flattens code fences, rules and tables of a one-line preview", () => {
    expect(plainPreview("Run this: ```sh npm run dev ``` then open it")).toBe(
      "Run this: npm run dev then open it",
    );
    expect(plainPreview("Intro --- Next ### Part two")).toBe("Intro Next Part two");
    expect(plainPreview("| Day | Task | |---|---| | Mon | Plants |")).toBe("Day Task Mon Plants");
  });

  it("leaves plain text alone: snake_case, sums, hashtags, C#, a cut-off end", () => {
    expect(plainPreview("Use snake_case_names and 2 * 3 = 6")).toBe("Use snake_case_names and 2 * 3 = 6");
    expect(plainPreview("Learn C# with #tips")).toBe("Learn C# with #tips");
    expect(plainPreview("Hello from the scripted model.")).toBe("Hello from the scripted model.");
    expect(plainPreview("An unfinished **bold cut…")).toBe("An unfinished **bold cut…");
    expect(plainPreview("Escaped \\*stars\\* stay")).toBe("Escaped *stars* stay");
  });
});
