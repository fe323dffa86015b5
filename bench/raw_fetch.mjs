/**
 * The Node.js floor: bench/raw_fetch.ts for Node's built-in fetch (undici),
 * the same requests in the same order. Usage: BASE_URL=… node bench/raw_fetch.mjs N
 */
const base = process.env.BASE_URL;
const count = Number(process.argv[2] ?? 200);
const json = { "content-type": "application/json" };

for (let i = 0; i < count; i++) {
  const login = await fetch(`${base}/login`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ username: "demo", password: "demo-password" }),
  });
  const { token } = await login.json();
  const auth = { authorization: `Bearer ${token}` };
  const created = await fetch(`${base}/jobs`, {
    method: "POST",
    headers: { ...auth, ...json },
    body: JSON.stringify({ kind: "bench", ready_after: 3 }),
  });
  const { id } = await created.json();
  for (let attempt = 1; attempt <= 10; attempt++) {
    const poll = await fetch(`${base}/jobs/${id}`, { headers: auth });
    if ((await poll.json()).state === "ready") break;
  }
  const deleted = await fetch(`${base}/jobs/${id}`, { method: "DELETE", headers: auth });
  await deleted.arrayBuffer();
}
