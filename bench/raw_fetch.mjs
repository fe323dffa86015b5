/**
 * The baseline: the same requests as N copies of bench/job_flow.yaml, in the
 * same order, with a plain fetch loop and no checks beyond what drives the
 * sequence. One script for both floors, so they cannot drift apart:
 * BASE_URL=… deno run -A bench/raw_fetch.mjs N [concurrency] [runner] [large], or
 * node bench/raw_fetch.mjs N (Deno's own APIs where it runs, so its Node
 * layer is not started). With `large` as fourth argument each flow is
 * bench/workers.ts's other suite instead: three GETs of bench/static_json.ts's
 * 86 KB body, each parsed.
 *
 * With `runner` as third argument the loop also does, for every request,
 * what any runner that keeps flowrun's promises must do, and nothing else:
 * a timeout that covers the whole body (an abort signal and a timer), every
 * response header read (for checks, captures and reports) and the body read
 * as text before it is parsed (for reports and secret discovery). That is
 * the floor for a runner, as opposed to the floor for a script.
 */
const deno = globalThis.Deno;
const base = deno ? deno.env.get("BASE_URL") : process.env.BASE_URL;
const args = deno ? deno.args : process.argv.slice(2);
const count = Number(args[0] ?? 200);
// The second argument runs that many flows at a time, like flowrun's --jobs.
const concurrency = Number(args[1] ?? 1);
const asRunner = args[2] === "runner";
const large = args[3] === "large";
const json = { "content-type": "application/json" };

/** One request; its JSON body, or undefined when it has none. */
async function call(url, init = {}) {
  if (!asRunner) {
    const response = await fetch(url, init);
    if (response.status === 204) return void await response.arrayBuffer();
    return await response.json();
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 30_000);
  try {
    const response = await fetch(url, { ...init, signal: controller.signal });
    const headers = {};
    for (const [name, value] of response.headers) headers[name] = value;
    const text = await response.text();
    return text === "" ? undefined : JSON.parse(text);
  } finally {
    clearTimeout(timer);
  }
}

let next = 0;
async function worker() {
  while (next < count) {
    const n = next++;
    await (large ? largeFlow(n) : flow());
  }
}
await Promise.all(Array.from({ length: concurrency }, worker));

/** bench/workers.ts's large-bodies flow: three GETs, each body parsed (the checks read it). */
async function largeFlow(n) {
  for (const path of ["a", "b", "c"]) await call(`${base}/${path}?n=${n}`);
}

async function flow() {
  const { token } = await call(`${base}/login`, {
    method: "POST",
    headers: json,
    body: JSON.stringify({ username: "demo", password: "demo-password" }),
  });
  const auth = { authorization: `Bearer ${token}` };
  const { id } = await call(`${base}/jobs`, {
    method: "POST",
    headers: { ...auth, ...json },
    body: JSON.stringify({ kind: "bench", ready_after: 3 }),
  });
  for (let attempt = 1; attempt <= 10; attempt++) {
    const poll = await call(`${base}/jobs/${id}`, { headers: auth });
    if (poll.state === "ready") break;
  }
  await call(`${base}/jobs/${id}`, { method: "DELETE", headers: auth });
}
