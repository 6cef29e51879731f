// A client as a user generates it: `openapi-typescript openapi.json` (default settings) and
// `openapi-fetch`, no casts. Run with Node: `node client-flow.ts <baseUrl>`; prints what it saw.
import createClient from "openapi-fetch";
import type { paths } from "./schema";

const FILE_NAME = "q3 report 文件.pdf";
const FILE_TEXT = "quarterly numbers";

const baseUrl = process.argv[2];
if (!baseUrl) throw new Error("usage: node client-flow.ts <baseUrl>");
const client = createClient<paths>({ baseUrl });

function expectData<T>(result: { data?: T; error?: unknown; response: Response }, step: string): T {
  if (result.data === undefined) {
    throw new Error(`${step}: ${result.response.status} ${JSON.stringify(result.error)}`);
  }
  return result.data;
}

const username = `gen-${Date.now()}`;
const registered = expectData(
  await client.POST("/api/register", {
    body: {
      username,
      name: "Generated Client",
      email: `${username}@example.com`,
      password: "correct horse battery staple",
    },
  }),
  "register",
);
const { token, userId } = registered.data;
const headers = { Authorization: `Bearer ${token}` };

const uploaded = expectData(
  await client.POST("/api/upload", {
    headers,
    // `file` is `type: string, format: binary` (one part's content): the serializer makes it the file part.
    body: { file: FILE_TEXT, directory: "reports" },
    // `file` first, as FormData code and generators order it.
    bodySerializer({ file, directory }) {
      const form = new FormData();
      form.append("file", new Blob([file], { type: "application/pdf" }), FILE_NAME);
      if (directory !== undefined) form.append("directory", directory);
      return form;
    },
  }),
  "upload",
);
const { key } = uploaded.data;

const created = expectData(
  await client.POST("/api/todos", {
    headers,
    body: { title: "Send the report", attachments: [{ fileKey: key }] },
  }),
  "create todo",
);

const listed = expectData(
  await client.GET("/api/todos", { headers, params: { query: { page: 1 } } }),
  "list",
);
// The list answers a page, or with `updatedSince` the changes after a cursor: narrow to the page.
if (!("items" in listed.data)) throw new Error("list: expected a page");
const listedItems = listed.data.items;

const downloaded = await client.GET("/api/download/{key}", {
  params: { path: { key } },
  parseAs: "arrayBuffer",
});
if (!downloaded.data) throw new Error(`download: ${downloaded.response.status}`);

const user = expectData(
  await client.GET("/api/users/{id}", { headers, params: { path: { id: userId } } }),
  "user",
);

console.log(
  JSON.stringify({
    username: registered.data.username,
    upload: uploaded.data,
    todo: {
      title: created.data.title,
      description: created.data.description,
      completed: created.data.completed,
      attachmentKeys: created.data.attachments.map((a) => a.fileKey),
      attachmentNames: created.data.attachments.map((a) => a.fileName),
    },
    listedIds: listedItems.map((t) => t.id),
    todoId: created.data.id,
    download: {
      text: new TextDecoder().decode(downloaded.data),
      contentType: downloaded.response.headers.get("Content-Type"),
      disposition: downloaded.response.headers.get("Content-Disposition"),
    },
    user: { id: user.data.id, username: user.data.username },
  }),
);
