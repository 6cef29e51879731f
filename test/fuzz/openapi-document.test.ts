// docs/security.md V12: openapi.json allows what the server answers, and refuses what the server refuses.
// Each case checks the server first, then the document's schema of the same value (the fuzzer's own check).
import { describe, expect, it } from "vitest";
import document from "../../openapi.json";
import { signUp } from "../helpers/auth";
import { api, expectError } from "../helpers/http";
import { multipartBody } from "../helpers/multipart";
import { createTodo } from "../helpers/todos";
import { putPart, sendUpload, startUpload } from "../helpers/uploads";
import { conforms, inline, type Schema } from "./positive-cases";

const component = (name: string) =>
  inline((document.components.schemas as unknown as Record<string, Schema>)[name]!);
const requestSchema = (path: string, method: string, type: string) =>
  inline(
    (document.paths as Record<string, Record<string, any>>)[path]![method]!.requestBody.content[type]
      .schema as Schema,
  );

describe("V12: the document agrees with the server", () => {
  it("a deletion in the delta sync (todo: null) is a TodoChange", async () => {
    const user = await signUp();
    const todo = await createTodo(user);
    await api(`/api/todos/${todo.id}/delete`, { method: "POST", token: user.token });
    const res = await api<{ data: { changes: { type: string; todo: unknown }[] } }>(
      "/api/todos?updatedSince=0",
      { token: user.token },
    );
    expect(res.status).toBe(200);
    const changes = res.body.data.changes;
    expect(changes.find((change) => change.type === "todo.deleted")?.todo).toBeNull();
    for (const change of changes) expect(conforms(component("TodoChange"), change as never)).toBe(true);
    expect(conforms(component("TodoChanges"), res.body.data as never)).toBe(true);
  });

  it("an upload has exactly one `file` part: two are 400, and the form schema refuses an array", async () => {
    const user = await signUp();
    const form = multipartBody([
      { name: "file", filename: "a.txt", body: "a" },
      { name: "file", filename: "b.txt", body: "b" },
    ]);
    expectError(await sendUpload(user.token, form.body, form.contentType), 400);
    const schema = requestSchema("/api/upload", "post", "multipart/form-data");
    expect(conforms(schema, { file: ["a", "b"] })).toBe(false);
    expect(conforms(schema, { file: "a" })).toBe(true);
  });

  it("currentPassword without password or email is 400, and the schema requires one with it", async () => {
    const user = await signUp();
    const body = { currentPassword: user.password, username: `${user.username}x` };
    const res = await api(`/api/users/${user.userId}`, { method: "POST", token: user.token, json: body });
    expectError(res, 400, "currentPassword is only used together with password or email");
    const schema = component("UpdateUserBody");
    expect(conforms(schema, body)).toBe(false);
    expect(conforms(schema, { ...body, password: "a-new-password-1" })).toBe(true);
    expect(conforms(schema, { ...body, email: "new@example.test" })).toBe(true);
  });

  it("an empty resumable part is 400, and the part's schema refuses an empty body", async () => {
    const user = await signUp();
    const upload = await startUpload(user.token, { fileName: "big.bin" });
    expectError(await putPart(user.token, upload.uploadId, 1, new Uint8Array(0)), 400, "Empty part");
    const schema = requestSchema(
      "/api/uploads/{uploadId}/parts/{partNumber}",
      "put",
      "application/octet-stream",
    );
    expect(conforms(schema, "")).toBe(false);
    expect(conforms(schema, "x")).toBe(true);
  });
});
