/**
 * The baseline: the same requests as N copies of bench/job_flow.yaml, in the
 * same order, with a plain fetch loop and no checks beyond what drives the
 * sequence. One script for both floors, so they cannot drift apart:
 * BASE_URL=… deno run -A bench/raw_fetch.mjs N, or node bench/raw_fetch.mjs N
 * (Deno's own APIs where it runs, so its Node layer is not started).
 */
const deno = globalThis.Deno;
const base = deno ? deno.env.get("BASE_URL") : process.env.BASE_URL;
const count = Number((deno ? deno.args[0] : process.argv[2]) ?? 200);
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
