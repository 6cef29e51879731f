/** Registers a fresh user on the service; returns `{ userId, username, password, token }`. */
export async function signUp(url) {
  const username = `bench_${crypto.randomUUID().replaceAll("-", "").slice(0, 16)}`;
  const password = `pw-${crypto.randomUUID()}`;
  const res = await fetch(`${url}/api/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ username, password, name: "Bench", email: `${username}@example.test` }),
  });
  if (res.status !== 201) throw new Error(`register: ${res.status} ${await res.text()}`);
  return { ...(await res.json()).data, password };
}
