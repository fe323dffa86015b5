import assert from "node:assert/strict";
import { loadFlow, type LoadOptions } from "../../lib/load/load_flow.ts";
import { runFlows } from "../../lib/run/flows.ts";
import { toJsonReport } from "../../lib/report/json.ts";
import type { Flow } from "../../lib/model/flow.ts";
import type { Reporter } from "../../lib/report/reporter.ts";
import "../support/engines.ts";

/** Starts a loopback server for one test; `close` must be awaited. */
function serve(handler: (request: Request) => Response | Promise<Response>) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

function flow(text: string, options: LoadOptions = {}): Flow {
  const result = loadFlow(text, "t.yaml", options);
  assert.deepEqual(result.problems, []);
  return result.flow!;
}

Deno.test("captured values flow into later steps and keep their JSON type", async () => {
  const seen: unknown[] = [];
  const api = serve(async (request) => {
    if (request.method === "POST") seen.push(await request.json());
    return Response.json({ id: 41, price: 9.5, ok: true, tags: ["x"] });
  });
  try {
    const f = flow(`name: types
steps:
  - name: first
    request: {url: "${api.url}/a"}
    capture: {id: $.json.id, tags: $.json.tags}
    extract: {ok: $.ok}
  - name: second
    request:
      method: POST
      url: "${api.url}/items/\${steps.first.capture.id}"
      body: {id: "\${steps.first.id}", ok: "\${steps.first.ok}", tags: "\${steps.first.tags}", text: "n=\${steps.first.id}"}
`);
    const result = await runFlows([f], { runId: "r" });
    assert.equal(result.status, "passed");
    assert.deepEqual(seen, [{ id: 41, ok: true, tags: ["x"], text: "n=41" }]);
    assert.deepEqual(result.flows[0].steps[0].captures, ["id", "tags", "ok"]);
    assert.equal(result.flows[0].steps[1].request?.url, `${api.url}/items/41`);
  } finally {
    await api.close();
  }
});

Deno.test("a failing step reports every assertion and skips the rest of its flow, not other flows", async () => {
  const api = serve(() => Response.json({ state: "pending", n: 2 }, { status: 500 }));
  try {
    const failing = flow(`name: failing
steps:
  - name: check
    request: {url: "${api.url}/x"}
    assert:
      status: 200
      json:
        - {path: $.json.state, equals: ready}
        - {path: $.json.n, equals: 2}
        - {path: $.json.gone, exists: true}
  - name: after
    request: {url: "${api.url}/y"}
`);
    const other = flow(`name: other\nsteps:\n  - name: fine\n    request: {url: "${api.url}/z"}\n`);
    const result = await runFlows([failing, other], { runId: "r" });
    const [first, second] = result.flows;
    assert.equal(result.status, "failed");
    assert.equal(first.status, "failed");
    const check = first.steps[0];
    assert.equal(check.failure_kind, "assertion");
    assert.equal(check.message, "status: expected 200, got 500 (and 2 more).");
    assert.deepEqual(check.assertions.map((a) => [a.path, a.passed]), [
      ["status", false],
      ["$.json.state", false],
      ["$.json.n", true],
      ["$.json.gone", false],
    ]);
    assert.equal(check.assertions[1].actual, "pending");
    assert.equal(check.assertions[1].expected, "ready");
    assert.equal(check.response?.status, 500);
    assert.equal(check.response?.body_excerpt, '{"state":"pending","n":2}');
    const { start_ms, ...after } = first.steps[1];
    assert.ok(
      start_ms! >= first.steps[0].duration_ms,
      "a skipped step starts after the one that failed",
    );
    assert.deepEqual(after, {
      name: "after",
      status: "skipped",
      duration_ms: 0,
      attempts: 0,
      line: 11,
      column: 5,
      request: null,
      response: null,
      assertions: [],
      captures: [],
      message: 'Skipped because step "check" failed.',
      failure_kind: "skipped",
    });
    assert.equal(second.status, "passed");
    assert.deepEqual(result.totals.flows, { total: 2, passed: 1, failed: 1, error: 0, skipped: 0 });
    assert.deepEqual(result.totals.steps, { total: 3, passed: 1, failed: 1, error: 0, skipped: 1 });
    assert.deepEqual(result.totals.assertions, { total: 4, passed: 1, failed: 3 });
  } finally {
    await api.close();
  }
});

Deno.test("a loop repeats until its condition holds, then checks assert on the last response", async () => {
  let polls = 0;
  const api = serve(() => Response.json({ state: ++polls >= 3 ? "ready" : "pending", polls }));
  try {
    const f = flow(`name: poll
steps:
  - name: wait
    request: {url: "${api.url}/job"}
    loop: {max_attempts: 5, sleep_ms: 1, until: {json: [{path: $.json.state, equals: ready}]}}
    assert: {json: [{path: $.json.polls, equals: 3}]}
`);
    const result = await runFlows([f]);
    const step = result.flows[0].steps[0];
    assert.equal(step.status, "passed");
    assert.equal(step.attempts, 3);
    assert.equal(polls, 3);
    const starts = step.attempt_starts_ms!;
    assert.equal(starts.length, 3);
    assert.ok(
      starts[0] === 0 || starts[0] < starts[1],
      "attempt start times are recorded in order",
    );
    assert.ok(starts[1] < starts[2] && starts[2] <= step.duration_ms);
    assert.deepEqual(step.assertions.map((a) => [a.phase, a.passed]), [["until", true], [
      "assert",
      true,
    ]]);
  } finally {
    await api.close();
  }
});

Deno.test("an unmet loop fails with the last response and the unmet condition", async () => {
  let polls = 0;
  const api = serve(() => Response.json({ state: "pending", polls: ++polls }));
  try {
    const f = flow(`name: poll
steps:
  - name: wait
    request: {url: "${api.url}/job"}
    loop: {max_attempts: 3, sleep_ms: 1, until: {json: [{path: $.json.state, equals: ready}]}}
`);
    const step = (await runFlows([f])).flows[0].steps[0];
    assert.equal(step.status, "failed");
    assert.equal(step.failure_kind, "until");
    assert.equal(step.attempts, 3);
    assert.equal(polls, 3, "max_attempts bounds the requests sent");
    assert.equal(
      step.message,
      'Still unmet after 3 attempts: $.json.state: expected "ready", got "pending".',
    );
    assert.equal(step.response?.body_excerpt, '{"state":"pending","polls":3}');
  } finally {
    await api.close();
  }
});

Deno.test("a network error counts as a failed poll attempt", async () => {
  // A raw TCP server: drops the first connection without answering, then answers properly.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  let connections = 0;
  const serving = (async () => {
    for await (const conn of listener) {
      connections++;
      if (connections === 1) {
        conn.close();
        continue;
      }
      const buffer = new Uint8Array(4096);
      await conn.read(buffer);
      const body = '{"state":"ready"}';
      await conn.write(new TextEncoder().encode(
        `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
      ));
      conn.close();
    }
  })();
  try {
    const f = flow(`name: flaky
steps:
  - name: wait
    request: {url: "http://127.0.0.1:${port}/job"}
    loop: {max_attempts: 3, sleep_ms: 1, until: {json: [{path: $.json.state, equals: ready}]}}
`);
    const step = (await runFlows([f])).flows[0].steps[0];
    assert.equal(step.status, "passed");
    assert.equal(step.attempts, 2);
  } finally {
    listener.close();
    await serving.catch(() => {});
  }
});

Deno.test("a target that is down is a step error with a plain reason", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  const f = flow(
    `name: down\nsteps:\n  - name: ping\n    request: {url: "http://127.0.0.1:${port}/"}\n`,
  );
  const result = await runFlows([f]);
  const step = result.flows[0].steps[0];
  assert.equal(step.status, "error");
  assert.equal(step.failure_kind, "request");
  assert.equal(step.message, "Request failed: connection refused.");
  assert.equal(step.response, null);
  assert.equal(result.flows[0].status, "error");
  assert.equal(result.status, "failed");
});

Deno.test("a request that takes longer than the timeout is a step error", async () => {
  const api = serve(async () => {
    await new Promise((r) => setTimeout(r, 300));
    return new Response("late");
  });
  try {
    const f = flow(`name: slow\nsteps:\n  - name: wait\n    request: {url: "${api.url}/"}\n`);
    const step = (await runFlows([f], { timeoutMs: 50 })).flows[0].steps[0];
    assert.equal(step.status, "error");
    assert.equal(step.message, "No complete response within 50 ms.");
  } finally {
    await api.close();
  }
});

Deno.test("redirects are not followed and cookies are not kept", async () => {
  const cookies: (string | null)[] = [];
  const api = serve((request) => {
    cookies.push(request.headers.get("cookie"));
    return new Response(null, {
      status: 302,
      headers: { location: "/elsewhere", "set-cookie": "sid=abc" },
    });
  });
  try {
    const f = flow(`name: plain
steps:
  - name: one
    request: {url: "${api.url}/a"}
    assert:
      status: 302
      json: [{path: $.headers.location, equals: /elsewhere}]
  - name: two
    request: {url: "${api.url}/b"}
`);
    const result = await runFlows([f]);
    assert.equal(result.status, "passed");
    assert.deepEqual(cookies, [null, null]);
  } finally {
    await api.close();
  }
});

Deno.test("run parameters override flow vars; vars are evaluated once per flow run", async () => {
  const paths: string[] = [];
  const api = serve((request) => {
    paths.push(new URL(request.url).pathname);
    return new Response("ok");
  });
  try {
    const f = flow(
      `name: vars
vars:
  who: flow
  id: \${RANDOM.HEX_8}
steps:
  - name: a
    request: {url: "${api.url}/\${vars.who}/\${vars.id}/\${extra}"}
  - name: b
    request: {url: "${api.url}/\${who}/\${vars.id}"}
`,
      { params: new Map([["who", "param"], ["extra", "x"]]) },
    );
    await runFlows([f], { params: new Map([["who", "param"], ["extra", "x"]]) });
    const [a, b] = paths;
    assert.match(a, /^\/param\/[0-9a-f]{8}\/x$/);
    assert.equal(
      b,
      a.replace(/\/x$/, ""),
      "the var holding RANDOM.HEX_8 is the same in every step",
    );
  } finally {
    await api.close();
  }
});

Deno.test("flows share no captures: each flow run has its own scope", async () => {
  let n = 0;
  const api = serve(() => Response.json({ n: ++n }));
  try {
    const f = flow(`name: own
steps:
  - name: a
    request: {url: "${api.url}/"}
    capture: {n: $.json.n}
  - name: b
    request: {url: "${api.url}/\${steps.a.capture.n}"}
    assert: {json: [{path: $.json.n, equals: "\${steps.a.capture.n}", notEquals: 0}]}
`);
    const result = await runFlows([f, f], { jobs: 1 });
    assert.equal(result.status, "failed", "b's response is always a's n + 1");
    assert.deepEqual(result.flows.map((r) => r.steps[1].assertions[0].expected), [1, 3]);
  } finally {
    await api.close();
  }
});

Deno.test("reporters receive events in order", async () => {
  const api = serve(() => new Response("ok"));
  const events: string[] = [];
  const reporter: Reporter = {
    onRunStart: (r) => void events.push(`run-start ${r.files.join()}`),
    onFlowStart: (f) => void events.push(`flow-start ${f.name}`),
    onStepEnd: (_, s) => void events.push(`step ${s.name} ${s.status}`),
    onFlowEnd: (f) => void events.push(`flow-end ${f.name} ${f.status}`),
    onRunEnd: (r) => void events.push(`run-end ${r.status}`),
  };
  try {
    const f = flow(`name: one\nsteps:\n  - name: a\n    request: {url: "${api.url}/"}\n`);
    await runFlows([f], { reporter });
    assert.deepEqual(events, [
      "run-start t.yaml",
      "flow-start one",
      "step a passed",
      "flow-end one passed",
      "run-end passed",
    ]);
  } finally {
    await api.close();
  }
});

Deno.test("flows run concurrently up to jobs, and results keep the given order", async () => {
  let inFlight = 0;
  let most = 0;
  const api = serve(async (request) => {
    inFlight++;
    most = Math.max(most, inFlight);
    const ms = Number(new URL(request.url).searchParams.get("ms"));
    await new Promise((r) => setTimeout(r, ms));
    inFlight--;
    return new Response("ok");
  });
  const slow = (name: string, ms: number) =>
    flow(`name: ${name}\nsteps:\n  - name: s\n    request: {url: "${api.url}/?ms=${ms}"}\n`);
  try {
    const finished: string[] = [];
    const reporter: Reporter = { onFlowEnd: (f) => void finished.push(f.name) };
    // The first flow's answer comes 2 s after the others' 10 ms: a margin no busy machine
    // closes, where 150 ms was one a load of 30 could.
    const result = await runFlows([slow("first", 2_000), slow("second", 10), slow("third", 10)], {
      jobs: 2,
      reporter,
    });
    // Two at a time, counted by the server rather than timed.
    assert.equal(most, 2);
    assert.deepEqual(finished, ["second", "third", "first"], "events come as flows finish");
    assert.deepEqual(
      result.flows.map((f) => f.name),
      ["first", "second", "third"],
      "results keep the given order",
    );

    most = 0;
    await runFlows([slow("a", 20), slow("b", 20), slow("c", 20)], { jobs: 1 });
    assert.equal(most, 1, "--jobs 1 is strictly sequential");
  } finally {
    await api.close();
  }
});

Deno.test("fail-fast starts no new flows after a failure and reports them as not run", async () => {
  const paths: string[] = [];
  const api = serve((request) => {
    const path = new URL(request.url).pathname;
    paths.push(path);
    return new Response(null, { status: path === "/bad" ? 500 : 200 });
  });
  const at = (name: string, path: string) =>
    flow(
      `name: ${name}\nsteps:\n  - name: s\n    request: {url: "${api.url}${path}"}\n    assert: {status: 200}\n`,
    );
  try {
    const result = await runFlows([at("one", "/bad"), at("two", "/two"), at("three", "/three")], {
      jobs: 1,
      failFast: true,
    });
    assert.deepEqual(paths, ["/bad"]);
    assert.deepEqual(result.flows.map((f) => f.status), ["failed", "skipped", "skipped"]);
    assert.equal(
      result.flows[1].steps[0].message,
      "Not run: --fail-fast stopped the run after t.yaml failed.",
    );
    assert.deepEqual(result.totals.flows, { total: 3, passed: 0, failed: 1, error: 0, skipped: 2 });
  } finally {
    await api.close();
  }
});

Deno.test("an interrupt abandons the request in flight, skips what is left and marks the run", async () => {
  const controller = new AbortController();
  let requests = 0;
  const api = serve(async () => {
    requests++;
    // Interrupt while this request is in flight; the runner must not wait for it.
    controller.abort("SIGINT");
    await new Promise((r) => setTimeout(r, 300));
    return new Response("late");
  });
  const f = flow(`name: long
steps:
  - name: first
    request: {url: "${api.url}/1"}
  - name: second
    request: {url: "${api.url}/2"}
`);
  try {
    const result = await runFlows([f, f], { jobs: 1, signal: controller.signal });
    // Counted, not timed: the request in flight was abandoned and none followed it.
    assert.equal(requests, 1, "no request is sent after the interrupt");
    assert.equal(result.interrupted, "SIGINT");
    assert.equal(result.status, "failed");
    const [ran, never] = result.flows;
    assert.equal(ran.status, "skipped");
    assert.deepEqual(ran.steps.map((s) => [s.status, s.failure_kind, s.message]), [
      ["skipped", "interrupted", "Interrupted (SIGINT) before the step finished."],
      ["skipped", "interrupted", "Skipped because the run was interrupted (SIGINT)."],
    ]);
    assert.equal(never.steps[0].message, "Not run: the run was interrupted (SIGINT).");
  } finally {
    await api.close();
  }
});

Deno.test("a truncated body fails only its step, with a plain reason, and the run goes on", async () => {
  // Promises 100 bytes, sends 10, hangs up: what a crashing upstream looks like.
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  const serving = (async () => {
    for await (const conn of listener) {
      await conn.read(new Uint8Array(4096));
      await conn.write(new TextEncoder().encode(
        'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"partial"',
      ));
      conn.close();
    }
  })();
  const api = serve(() => Response.json({ ok: true }));
  try {
    const broken = flow(
      `name: broken\nsteps:\n  - name: get\n    request: {url: "http://127.0.0.1:${port}/"}\n`,
    );
    const fine = flow(`name: fine\nsteps:\n  - name: get\n    request: {url: "${api.url}/"}\n`);
    const result = await runFlows([broken, fine], { jobs: 1 });
    const step = result.flows[0].steps[0];
    assert.equal(step.status, "error");
    assert.equal(step.failure_kind, "request");
    assert.equal(
      step.message,
      "Request failed: the server closed the connection before the whole response arrived.",
    );
    assert.equal(result.flows[1].status, "passed");
  } finally {
    listener.close();
    await serving.catch(() => {});
    await api.close();
  }
});

Deno.test("--trace sends a traceparent per request: one trace per flow run, a span per request", async () => {
  const seen: (string | null)[] = [];
  const api = serve((request) => {
    seen.push(request.headers.get("traceparent"));
    return Response.json({ ok: true });
  });
  try {
    const f = flow(`name: traced
steps:
  - name: a
    request: {url: "${api.url}/a?trace=\${TRACE_ID}"}
  - name: own
    request:
      url: "${api.url}/b"
      headers: {TraceParent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}
  - name: c
    request: {url: "${api.url}/c"}
`);
    const result = await runFlows([f, f], { trace: true, jobs: 1 });
    const [one, two] = result.flows;
    assert.match(one.trace_id!, /^[0-9a-f]{32}$/);
    assert.notEqual(one.trace_id, two.trace_id, "each flow run has its own trace");
    const [a, own, c] = seen.slice(0, 3);
    assert.match(a!, new RegExp(`^00-${one.trace_id}-[0-9a-f]{16}-01$`));
    assert.equal(
      own,
      "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
      "a flow's own header wins",
    );
    assert.match(c!, new RegExp(`^00-${one.trace_id}-[0-9a-f]{16}-01$`));
    assert.notEqual(a!.split("-")[2], c!.split("-")[2], "a fresh span id per request");
    assert.equal(
      one.steps[0].request?.url,
      `${api.url}/a?trace=${one.trace_id}`,
      "${TRACE_ID} is the flow run's trace id",
    );
    assert.deepEqual(one.steps[0].trace, { trace_id: one.trace_id, span_id: a!.split("-")[2] });
    assert.deepEqual(one.steps[1].trace, {
      trace_id: "4bf92f3577b34da6a3ce929d0e0e4736",
      span_id: "00f067aa0ba902b7",
    });

    seen.length = 0;
    const plain = await runFlows([f], { jobs: 1 });
    assert.equal(plain.flows[0].trace_id, undefined);
    assert.deepEqual(
      seen.map((h) => h !== null),
      [false, true, false],
      "without --trace only the flow's own header is sent",
    );
    assert.equal(plain.flows[0].steps[0].trace, undefined);
    assert.match(
      plain.flows[0].steps[0].request!.url,
      /trace=[0-9a-f]{32}$/,
      "${TRACE_ID} works without --trace",
    );
  } finally {
    await api.close();
  }
});

Deno.test("a step that did not pass keeps its request and response in full, bodies cut at 64 KiB", async () => {
  const big = "x".repeat(70_000);
  const api = serve(() =>
    new Response(`{"big":"${big}"}`, {
      status: 500,
      headers: { "content-type": "application/json", "x-trace": "t1" },
    })
  );
  try {
    const f = flow(`name: details
steps:
  - name: send
    request:
      method: POST
      url: "${api.url}/orders"
      headers: {x-client: tests}
      body: {sku: TEA}
    assert: {status: 200}
`);
    const step = (await runFlows([f])).flows[0].steps[0];
    assert.deepEqual(step.request, {
      method: "POST",
      url: `${api.url}/orders`,
      headers: { "x-client": "tests", "content-type": "application/json" },
      body: '{"sku":"TEA"}',
      curl: `curl -X POST '${api.url}/orders' -H 'x-client: tests' ` +
        `-H 'content-type: application/json' --data-raw '{"sku":"TEA"}'`,
    });
    assert.equal(step.response?.headers?.["x-trace"], "t1");
    assert.equal(step.response?.body?.length, 64 * 1024);
    assert.equal(step.response?.body_truncated, 70_010 - 64 * 1024);

    const passing = flow(`name: ok\nsteps:\n  - name: send\n    request: {url: "${api.url}/"}\n`);
    const ok = (await runFlows([passing])).flows[0].steps[0];
    assert.deepEqual(
      ok.request,
      { method: "GET", url: `${api.url}/` },
      "passing steps stay compact",
    );
    assert.equal(ok.response?.body, undefined);
  } finally {
    await api.close();
  }
});

Deno.test("handed over (release), the runner empties the list and frees each flow once it has run", async () => {
  const api = serve(() => Response.json({ ok: true }));
  try {
    const flows = Array.from(
      { length: 30 },
      (_, i) => flow(`name: f${i}\nsteps:\n  - name: get\n    request: {url: "${api.url}/${i}"}\n`),
    );
    const result = await runFlows(flows, { release: true, jobs: 2 });
    assert.equal(flows.length, 0, "the list given is emptied");
    assert.equal(result.flows.length, 30);
    assert.deepEqual(
      result.flows.map((f) => f.name),
      Array.from({ length: 30 }, (_, i) => `f${i}`),
    );
    assert.ok(result.flows.every((f) => f.status === "passed"));
    // Without release the caller's list is left as it was.
    const kept = [flow(`name: k\nsteps:\n  - name: get\n    request: {url: "${api.url}/k"}\n`)];
    await runFlows(kept);
    assert.equal(kept.length, 1);
  } finally {
    await api.close();
  }
});

Deno.test("passing step results come out in the JSON report's key order, so the report copies none", async () => {
  let polls = 0;
  const api = serve((request) =>
    request.url.endsWith("/job")
      ? Response.json({ state: ++polls < 3 ? "pending" : "ready", rows: [1, 2] })
      : Response.json({ token: "t" })
  );
  try {
    const f = flow(`name: order
steps:
  - name: plain
    request: {url: "${api.url}/login"}
    capture: {token: $.json.token}
    assert: {status: 200, json: [{path: $.json.token, type: string}]}
  - name: polled
    request: {url: "${api.url}/job"}
    loop: {max_attempts: 5, sleep_ms: 0, until: {json: [{path: $.json.state, equals: ready}]}}
    assert: {json: [{path: $.json.rows, length: 2}, {path: "$.json.rows[*]", each: true, gte: 1}]}
`);
    const result = await runFlows([f], { runId: "r" });
    assert.equal(result.status, "passed");
    const report = toJsonReport(result);
    const [plain, polled] = result.flows[0].steps;
    assert.equal(polled.attempts, 3);
    assert.equal(
      report.flows[0].steps[0],
      plain,
      "the first step was copied: its keys are out of order",
    );
    assert.equal(
      report.flows[0].steps[1],
      polled,
      "the polled step was copied: its keys are out of order",
    );
  } finally {
    await api.close();
  }
});

Deno.test("a value that becomes secret later in a flow is masked in every earlier step's result", async () => {
  const value = "later-s3cret-7f2c9e";
  const api = serve((request) => {
    const path = new URL(request.url).pathname;
    if (path === "/echo") return Response.json({ got: request.headers.get("x-api-key") });
    return Response.json(path === "/a" ? { note: value } : { access_token: value });
  });
  try {
    const text = `name: later
steps:
  - name: a
    request: {url: "${api.url}/a"}
    assert: {json: [{path: $.json.note, type: string}]}
  - name: b
    request: {url: "${api.url}/b"}
`;
    // No reporter listens to steps: results are masked once, when the flow ends.
    const quiet = await runFlows([flow(text)], { runId: "r" });
    // A reporter that does sees each step masked as it ends (with what was secret by then).
    const seen: string[] = [];
    const reporter: Reporter = { onStepEnd: (_, step) => void seen.push(JSON.stringify(step)) };
    const loud = await runFlows([flow(text)], { runId: "r", reporter });
    for (const result of [quiet, loud]) {
      assert.equal(result.flows[0].status, "passed");
      const json = JSON.stringify(result.flows[0].steps);
      assert.ok(!json.includes(value), json);
      assert.equal(result.flows[0].steps[0].assertions[0].actual, "***");
    }
    assert.equal(seen.length, 2);
    assert.ok(seen[0].includes(value), "not secret yet when step a ended");
    assert.ok(!seen[1].includes(value));
    // Secret from the start and nothing registered after the step: still masked at the end.
    const early = await runFlows([
      flow(`name: early
vars: {k: k3y-known-from-the-start}
steps:
  - name: echo
    request: {url: "${api.url}/echo", headers: {x-api-key: "\${vars.k}"}}
    assert: {json: [{path: $.json.got, type: string}]}
`),
    ], { runId: "r" });
    const json = JSON.stringify(early.flows[0].steps);
    assert.ok(!json.includes("k3y-known-from-the-start"), json);
  } finally {
    await api.close();
  }
});
