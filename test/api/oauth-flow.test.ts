import { describe, expect, it } from "vitest";
import { signUp } from "../helpers/auth";
import { callTool, rpc } from "../helpers/mcp";
import { grantFor, RESOURCE } from "../helpers/oauth";

describe("smoke", () => {
  it("grants and calls", async () => {
    const user = await signUp();
    const grant = await grantFor(user, { write: true });
    console.log("GRANT", JSON.stringify(grant));
    const list = await rpc(grant.access_token, "tools/list", {}, RESOURCE);
    console.log("LIST", list.text, JSON.stringify([...list.headers]));
    expect(list.status).toBe(200);
    const created = await callTool(grant.access_token, "createTodo", { title: "via oauth" }, RESOURCE);
    console.log("CREATED", JSON.stringify(created));
    expect(created.result.isError).toBeFalsy();
  });
});
