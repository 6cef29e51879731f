// The demo account `npm run seed` writes, through the service's own HTTP API (so passwords, R2 objects,
// file records, quotas and the chat index are written by the code that always writes them). Each item is
// created only when the account lacks it, found by its title or file name: a second run adds nothing.

export const DEMO = {
  username: "demo",
  password: "demo-password",
  name: "Demo User",
  email: "demo@example.com",
};

/** `visibility` private: only the owner (or a share link) downloads it. */
const FILES = [
  { name: "welcome.md", type: "text/markdown", text: "# Welcome\n\nThese todos and files are demo data.\n" },
  { name: "q3-report.csv", type: "text/csv", text: "quarter,revenue\nQ2,100\nQ3,112\n" },
  { name: "passport-scan.txt", type: "text/plain", text: "A private file.\n", visibility: "private" },
];

/** `files` name entries of FILES, attached by their keys. */
const TODOS = [
  { title: "Read the welcome note", description: "It is attached.", files: ["welcome.md"] },
  { title: "Send the Q3 report", description: "Revenue is up 12%.", files: ["q3-report.csv"] },
  { title: "Renew the passport", files: ["passport-scan.txt"] },
  { title: "Book the dentist", description: "Any morning next week." },
  { title: "Run npm run seed", completed: true },
];

const CHATS = ["Plan the week"];

/** fetch, then the `data` of the envelope; anything but `expected` throws with the service's message. */
async function call(url, path, { token, expected = 200, json, form } = {}) {
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  if (json) headers["Content-Type"] = "application/json";
  const res = await fetch(url + path, {
    method: json || form ? "POST" : "GET",
    headers,
    body: json ? JSON.stringify(json) : form,
  });
  const body = await res.json().catch(() => null);
  if (res.status !== expected) {
    const error = new Error(`${path}: ${res.status} ${body?.error?.message ?? ""}`.trim());
    error.status = res.status;
    throw error;
  }
  return body.data;
}

/** The demo account's token: registered on the first run, signed in on the next ones. */
async function signIn(url) {
  try {
    return (await call(url, "/api/register", { json: DEMO, expected: 201 })).token;
  } catch (err) {
    if (err.status !== 409) throw err;
  }
  const credentials = { username: DEMO.username, password: DEMO.password };
  try {
    return (await call(url, "/api/login", { json: credentials, expected: 201 })).token;
  } catch (err) {
    if (err.status !== 401) throw err;
    throw new Error(
      `A user "${DEMO.username}" (or the e-mail ${DEMO.email}) already exists with another password: ` +
        "the seed leaves it alone. Delete that account, or seed a fresh state folder (--persist-to).",
      { cause: err },
    );
  }
}

/**
 * Seeds the service at `url` with the demo account and its todos, files and chat.
 * @returns {Promise<{ added: Record<"files"|"todos"|"chats", number>, total: Record<"files"|"todos"|"chats", number> }>}
 */
export async function seedDemo(url) {
  const token = await signIn(url);
  const get = (path) => call(url, path, { token });
  const added = { files: 0, todos: 0, chats: 0 };

  const keys = new Map(
    (await get("/api/files?limit=100")).items.map((file) => [file.originalName, file.key]),
  );
  for (const file of FILES.filter((f) => !keys.has(f.name))) {
    const form = new FormData();
    form.append("directory", "demo");
    if (file.visibility) form.append("visibility", file.visibility);
    form.append("file", new Blob([file.text], { type: file.type }), file.name);
    keys.set(file.name, (await call(url, "/api/upload", { token, form, expected: 201 })).key);
    added.files++;
  }

  const titles = new Set((await get("/api/todos?pageSize=100")).items.map((todo) => todo.title));
  for (const { files = [], ...todo } of TODOS.filter((t) => !titles.has(t.title))) {
    const attachments = files.map((name) => ({ fileKey: keys.get(name) }));
    await call(url, "/api/todos", { token, json: { ...todo, attachments }, expected: 201 });
    added.todos++;
  }

  const chats = new Set((await get("/api/chats?limit=100")).items.map((chat) => chat.title));
  for (const title of CHATS.filter((t) => !chats.has(t))) {
    await call(url, "/api/chats", { token, json: { title }, expected: 201 });
    added.chats++;
  }
  return { added, total: { files: FILES.length, todos: TODOS.length, chats: CHATS.length } };
}
