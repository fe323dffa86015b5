/**
 * Per-step and per-flow `options`: a timeout, following redirects, a delay
 * before the first request, and bounded retries on network errors or chosen
 * statuses with a doubling wait; a step's options override its flow's.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { runFlow } from "../../lib/run/flows.ts";
import "../support/engines.ts";

function serve() {
  let flaky = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (path === "/redirect") return Response.redirect(new URL("/final", req.url), 302);
    if (path === "/final") return Response.json({ final: true });
    if (path === "/flaky") {
      return ++flaky % 3 === 0
        ? Response.json({ ok: true })
        : new Response("busy", { status: 503 });
    }
    if (path === "/slow") {
      await new Promise((r) => setTimeout(r, 400));
      return Response.json({ slow: true });
    }
    return Response.json({});
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

async function run(text: string) {
  const { flow, problems } = loadFlow(text, "o.yaml");
  assert.deepEqual(problems, []);
  return await runFlow(flow!, { runId: "r", timeoutMs: 5000 });
}

Deno.test("redirects are responses unless the step follows them", async () => {
  const api = serve();
  try {
    const result = await run(`name: o
steps:
  - name: manual
    request: {url: "${api.url}/redirect"}
    assert: {status: 302}
  - name: followed
    options: {follow_redirects: true}
    request: {url: "${api.url}/redirect"}
    assert:
      status: 200
      json: [{path: $.json.final, equals: true}]
`);
    assert.equal(result.status, "passed", JSON.stringify(result.steps.map((s) => s.message)));
  } finally {
    await api.close();
  }
});

Deno.test("retries on chosen statuses and network errors, bounded, with a doubling wait", async () => {
  const api = serve();
  try {
    // A port nothing listens on: the connection is refused.
    const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const refusedPort = (closed.addr as Deno.NetAddr).port;
    closed.close();
    const started = performance.now();
    const result = await run(`name: o
steps:
  - name: flaky
    options: {retry: {count: 3, on: [503], delay: 20ms}}
    request: {url: "${api.url}/flaky"}
    assert: {status: 200}
  - name: refused
    always: true
    options: {retry: {count: 2, delay: 10ms}}
    request: {url: "http://127.0.0.1:${refusedPort}/"}
  - name: not_retried
    always: true
    options: {retry: 5}
    request: {url: "${api.url}/flaky"}
    assert: {status: 503}
`);
    const [flaky, refused, notRetried] = result.steps;
    assert.equal(flaky.status, "passed", flaky.message);
    assert.equal(flaky.attempts, 3, "two 503s, then 200");
    // Waits of 20 ms then 40 ms.
    assert.ok(performance.now() - started >= 60);
    assert.equal(refused.status, "error");
    assert.equal(refused.attempts, 3, "the first request and two retries");
    assert.match(refused.message!, /connection refused/);
    // "retry: 5" retries network errors only: a 503 is the response.
    assert.equal(notRetried.attempts, 1);
    assert.equal(notRetried.status, "passed");
  } finally {
    await api.close();
  }
});

Deno.test("a timeout and a delay per step; the flow's options are the defaults", async () => {
  const api = serve();
  try {
    const result = await run(`name: o
options: {timeout: 100ms}
steps:
  - name: delayed
    options: {delay: 150ms}
    request: {url: "${api.url}/final"}
  - name: patient
    options: {timeout: 3s}
    request: {url: "${api.url}/slow"}
  - name: hasty
    request: {url: "${api.url}/slow"}
`);
    const [delayed, patient, hasty] = result.steps;
    assert.equal(delayed.status, "passed");
    assert.ok(delayed.duration_ms >= 140, `${delayed.duration_ms} ms`);
    assert.equal(patient.status, "passed", patient.message);
    assert.equal(hasty.status, "error");
    // Its deadline's own message, not a clock: the step gave up at 100 ms, not at the answer.
    assert.equal(hasty.message, "No complete response within 100 ms.");
  } finally {
    await api.close();
  }
});

Deno.test("misused options are positioned problems with the fix", () => {
  const step = (options: string) =>
    `name: o\nsteps:\n  - name: s\n    request: {url: http://x.test}\n    options: ${options}\n`;
  const cases: [string, string, RegExp][] = [
    [
      "{timeout: 5 seconds}",
      '5:24 wrong-type: Expected "timeout" of step "s" to be a duration',
      /500ms, 5s/,
    ],
    [
      "{retry: {count: 3, on: [500ish]}}",
      '5:38 wrong-type: Expected "retry.on" of step "s"',
      /network, 502/,
    ],
    [
      "{retry: 50}",
      '5:22 out-of-range: Expected "retry" of step "s" to be at most 10',
      /Retries are bounded/,
    ],
    ["{retries: 3}", '5:15 unknown-key: Unknown key "retries"', /Did you mean "retry"/],
    ["{follow_redirects: yes}", '5:33 wrong-type: Expected "follow_redirects"', /true/],
  ];
  for (const [options, start, hint] of cases) {
    const { problems } = loadFlow(step(options), "o.yaml");
    assert.equal(problems.length, 1, JSON.stringify(problems));
    const text = `${problems[0].line}:${problems[0].column} ${problems[0].code}: ${
      problems[0].message
    }`;
    assert.ok(text.startsWith(start), text);
    assert.match(problems[0].hint ?? "", hint);
  }
  const [timeout] = loadFlow(
    "name: o\nsteps:\n  - name: s\n    timeout: 5s\n    request: {url: http://x.test}\n",
    "o.yaml",
  ).problems;
  assert.equal(timeout.hint, 'Set it under "options": options: {timeout: 5s}.');
});
