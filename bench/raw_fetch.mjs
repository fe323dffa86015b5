/**
 * The baseline: the same requests as N copies of bench/job_flow.yaml, in the
 * same order, with a plain fetch loop and no checks beyond what drives the
 * sequence. One script for both floors, so they cannot drift apart:
 * BASE_URL=… deno run -A bench/raw_fetch.mjs N [concurrency], or node bench/raw_fetch.mjs N
 * (Deno's own APIs where it runs, so its Node layer is not started).
 */
const deno = globalThis.Deno;
const base = deno ? deno.env.get("BASE_URL") : process.env.BASE_URL;
const args = deno ? deno.args : process.argv.slice(2);
const count = Number(args[0] ?? 200);
// The second argument runs that many flows at a time, like flowrun's --jobs.
const concurrency = Number(args[1] ?? 1);
const json = { "content-type": "application/json" };

let next = 0;
async function worker() {
  while (next < count) {
    next++;
    await flow();
  }
}
await Promise.all(Array.from({ length: concurrency }, worker));

async function flow() {
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
