import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { runFlows } from "../../lib/run/flows.ts";
import type { Flow } from "../../lib/model/flow.ts";
import { logReporter } from "../../lib/report/log.ts";
import type { FlowRef } from "../../lib/report/reporter.ts";
import type { FlowResult, StepResult } from "../../lib/model/result.ts";
import { VERSION } from "../../lib/model/version.ts";
import "../support/engines.ts";

/** Starts a loopback server for one test; `close` must be awaited. */
function serve(handler: (request: Request) => Response | Promise<Response>) {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/**
 * A server that holds a request to /a until one to /b has arrived, and the
 * other way round: two flows asking for them are provably in flight at once.
 */
function serveInStep() {
  const arrived = { a: Promise.withResolvers<void>(), b: Promise.withResolvers<void>() };
  return serve(async (request) => {
    const path = new URL(request.url).pathname;
    if (path === "/a" || path === "/b") {
      const [mine, other] = path === "/a" ? ["a", "b"] as const : ["b", "a"] as const;
      arrived[mine].resolve();
      await arrived[other].promise;
    }
    return Response.json({ ok: true });
  });
}

function flow(text: string, file: string): Flow {
  const result = loadFlow(text, file);
  assert.deepEqual(result.problems, []);
  return result.flow!;
}

type Line = Record<string, unknown> & { event: string; ts: string; run_id: string | null };

/** Collects lines from the reporter's sink, and what each call of it was given. */
function collector() {
  const raw: string[] = [];
  const calls: string[] = [];
  const sink = (text: string) => {
    calls.push(text);
    raw.push(...linesOf(text));
  };
  return { raw, calls, sink };
}

/** The lines of what one sink call was given: whole lines only, each ending with a newline. */
function linesOf(text: string): string[] {
  assert.ok(text.endsWith("\n"), `a write ends inside a line: ${text}`);
  return text.slice(0, -1).split("\n").map((line) => `${line}\n`);
}

const HEAD = ["event", "ts", "run_id", "file", "step"];
/** The documented keys of each event, in order; `?` marks keys that may be left out. */
const KEYS: Record<string, string[]> = {
  run_start: ["runner_version", "started_at", "files"],
  flow_start: ["name"],
  request: ["attempt", "method", "url"],
  response: ["attempt", "status", "duration_ms", "until_met?"],
  request_error: ["attempt", "error", "duration_ms"],
  assertion: [
    "phase",
    "path",
    "operator",
    "passed",
    "message",
    "expected",
    "actual",
    "found",
    "line",
    "column",
  ],
  step_end: ["status", "duration_ms", "attempts", "message?", "failure_kind?", "captures"],
  flow_end: ["name", "status", "duration_ms", "steps", "message?"],
  run_end: ["status", "duration_ms", "interrupted?", "totals"],
};
const NO_FILE = new Set(["run_start", "run_end"]);
const NO_STEP = new Set(["run_start", "flow_start", "flow_end", "run_end"]);

/**
 * Parses every line and checks what holds for all of them: a whole line
 * ending in a newline, valid JSON, ts and run_id present, keys
 * exactly the documented ones in the documented order.
 */
function parse(raw: string[]): Line[] {
  return raw.map((text) => {
    assert.ok(text.endsWith("\n"), text);
    assert.ok(!text.slice(0, -1).includes("\n"), `a line breaks inside: ${text}`);
    assert.ok(!/[\r\u2028\u2029]/.test(text), `a line holds a line separator: ${text}`);
    const line = JSON.parse(text) as Line;
    const event = line.event;
    assert.ok(event in KEYS, `unknown event ${event}`);
    assert.match(line.ts, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    assert.ok("run_id" in line, text);
    const documented = [
      ...HEAD.filter((k) =>
        !(k === "file" && NO_FILE.has(event)) && !(k === "step" && NO_STEP.has(event))
      ),
      ...KEYS[event],
    ];
    const required = documented.filter((k) => !k.endsWith("?"));
    const order = documented.map((k) => k.replace("?", ""));
    const keys = Object.keys(line);
    assert.deepEqual(keys, order.filter((k) => keys.includes(k)), `key order of ${text}`);
    for (const key of required) assert.ok(key in line, `${key} missing in ${text}`);
    return line;
  });
}

/** A compact trace of lines: event and the fields that identify it. */
const trace = (lines: Line[]) =>
  lines.map((l) =>
    [l.event, l.step, l.attempt, l.phase, l.status].filter((v) => v !== undefined).join(" ")
  );

Deno.test("the log of a real run has every event, in order, with its fields", async () => {
  let polls = 0;
  const api = serve((request) => {
    const path = new URL(request.url).pathname;
    if (path === "/login") return Response.json({ token: "t-1" });
    if (path === "/job") return Response.json({ state: ++polls >= 3 ? "ready" : "pending" });
    return Response.json({ n: 2 });
  });
  try {
    const f = flow(
      `name: Logged
steps:
  - name: login
    request: {method: POST, url: "${api.url}/login", body: {user: demo}}
    capture: {token: $.json.token}
    assert:
      status: 200
      json:
        - {path: $.json.token, type: string}
  - name: wait
    request: {url: "${api.url}/job"}
    loop:
      max_attempts: 5
      sleep_ms: 1
      until:
        json:
          - {path: $.json.state, equals: ready}
  - name: check
    request: {url: "${api.url}/check"}
    assert:
      json:
        - {path: $.json.n, equals: 3}
        - {path: $.json.gone, exists: true}
  - name: after
    request: {url: "${api.url}/never"}
`,
      "flows/logged.yaml",
    );
    const out = collector();
    const result = await runFlows([f], {
      runId: "run-1",
      reporter: logReporter({ sink: out.sink }),
    });
    assert.equal(result.status, "failed");
    const lines = parse(out.raw);
    assert.deepEqual(trace(lines), [
      "run_start",
      "flow_start",
      "request login 1",
      "response login 1 200",
      "assertion login assert",
      "assertion login assert",
      "step_end login passed",
      "request wait 1",
      "response wait 1 200",
      "request wait 2",
      "response wait 2 200",
      "request wait 3",
      "response wait 3 200",
      "assertion wait until",
      "step_end wait passed",
      "request check 1",
      "response check 1 200",
      "assertion check assert",
      "assertion check assert",
      "step_end check failed",
      "step_end after skipped",
      "flow_end failed",
      "run_end failed",
    ]);
    for (const line of lines) assert.equal(line.run_id, "run-1");
    for (const line of lines.slice(1, -1)) assert.equal(line.file, "flows/logged.yaml");
    const times = lines.map((l) => Date.parse(l.ts));
    assert.deepEqual(times, [...times].sort((a, b) => a - b), "ts never goes back");

    const [runStart, flowStart, request, response] = lines;
    assert.deepEqual({ ...runStart, ts: "" }, {
      event: "run_start",
      ts: "",
      run_id: "run-1",
      runner_version: VERSION,
      started_at: result.started_at,
      files: 1,
    });
    assert.deepEqual({ ...flowStart, ts: "" }, {
      event: "flow_start",
      ts: "",
      run_id: "run-1",
      file: "flows/logged.yaml",
      name: "Logged",
    });
    assert.deepEqual({ ...request, ts: "" }, {
      event: "request",
      ts: "",
      run_id: "run-1",
      file: "flows/logged.yaml",
      step: "login",
      attempt: 1,
      method: "POST",
      url: `${api.url}/login`,
    });
    assert.equal(response.status, 200);
    assert.equal(typeof response.duration_ms, "number");
    assert.ok(!("until_met" in response), "only polled steps carry until_met");

    // Polling folds into `response`: until_met on every attempt of the polled step.
    const polled = lines.filter((l) => l.event === "response" && l.step === "wait");
    assert.deepEqual(polled.map((l) => l.until_met), [false, false, true]);

    const login = lines.filter((l) => l.step === "login");
    assert.deepEqual(login.find((l) => l.event === "step_end"), {
      event: "step_end",
      ts: login[4].ts,
      run_id: "run-1",
      file: "flows/logged.yaml",
      step: "login",
      status: "passed",
      duration_ms: result.flows[0].steps[0].duration_ms,
      attempts: 1,
      captures: ["token"],
    });
    const status = login.find((l) => l.event === "assertion" && l.path === "status")!;
    assert.equal(status.passed, true);
    assert.equal(status.actual, 200);

    const checks = lines.filter((l) => l.event === "assertion" && l.step === "check");
    assert.deepEqual(checks.map(({ ts: _, ...rest }) => rest), [
      {
        event: "assertion",
        run_id: "run-1",
        file: "flows/logged.yaml",
        step: "check",
        phase: "assert",
        path: "$.json.n",
        operator: "equals",
        passed: false,
        message: result.flows[0].steps[2].assertions[0].message,
        expected: 3,
        actual: 2,
        found: true,
        line: 22,
        column: 28,
      },
      {
        event: "assertion",
        run_id: "run-1",
        file: "flows/logged.yaml",
        step: "check",
        phase: "assert",
        path: "$.json.gone",
        operator: "exists",
        passed: false,
        message: result.flows[0].steps[2].assertions[1].message,
        expected: true,
        // Nothing matched: actual is written as null, never left out.
        actual: null,
        found: false,
        line: 23,
        column: 31,
      },
    ]);
    const failedStep = lines.find((l) => l.event === "step_end" && l.step === "check")!;
    assert.equal(failedStep.failure_kind, "assertion");
    assert.equal(failedStep.message, result.flows[0].steps[2].message);
    const skippedStep = lines.find((l) => l.event === "step_end" && l.step === "after")!;
    assert.equal(skippedStep.attempts, 0);
    assert.equal(skippedStep.failure_kind, "skipped");

    const flowEnd = lines.at(-2)!;
    assert.equal(flowEnd.name, "Logged");
    assert.equal(flowEnd.duration_ms, result.flows[0].duration_ms);
    assert.deepEqual(flowEnd.steps, { total: 4, passed: 2, failed: 1, error: 0, skipped: 1 });
    assert.equal(flowEnd.message, result.flows[0].steps[2].message, "why the flow failed");
    const runEnd = lines.at(-1)!;
    assert.deepEqual(runEnd.totals, result.totals);
    assert.equal(runEnd.duration_ms, result.duration_ms);
    assert.ok(!("interrupted" in runEnd));
  } finally {
    await api.close();
  }
});

Deno.test("a request that gets no response is logged as request_error", async () => {
  // A port that was just free: connecting to it is refused.
  const closed = serve(() => new Response());
  await closed.close();
  const out = collector();
  await runFlows([
    flow(
      `name: Down\nsteps:\n  - name: ping\n    request: {url: "${closed.url}/"}\n`,
      "down.yaml",
    ),
  ], { runId: "r", reporter: logReporter({ sink: out.sink }) });
  const lines = parse(out.raw);
  assert.deepEqual(trace(lines), [
    "run_start",
    "flow_start",
    "request ping 1",
    "request_error ping 1",
    "step_end ping error",
    "flow_end error",
    "run_end failed",
  ]);
  const error = lines[3];
  assert.equal(typeof error.error, "string");
  assert.ok((error.error as string).length > 0);
  assert.equal(typeof error.duration_ms, "number");
  assert.equal(lines[4].failure_kind, "request");
  assert.equal(lines[5].message, lines[4].message);
});

Deno.test("flows running at once each write their lines together when they end, in their own order", async () => {
  // Each flow's first request is held until the other flow's has arrived, so
  // both flows are provably in flight at once.
  const api = serveInStep();
  try {
    const make = (name: string) =>
      flow(
        `name: ${name}
steps:
  - name: first
    request: {url: "${api.url}/${name}"}
    assert: {status: 200}
  - name: second
    request: {url: "${api.url}/x"}
    assert: {status: 200}
`,
        `${name}.yaml`,
      );
    const out = collector();
    const result = await runFlows([make("a"), make("b")], {
      runId: "r2",
      jobs: 2,
      reporter: logReporter({ sink: out.sink }),
    });
    assert.equal(result.status, "passed");
    const lines = parse(out.raw);
    const own = [
      "flow_start",
      "request first 1",
      "response first 1 200",
      "assertion first assert",
      "step_end first passed",
      "request second 1",
      "response second 1 200",
      "assertion second assert",
      "step_end second passed",
      "flow_end passed",
    ];
    for (const file of ["a.yaml", "b.yaml"]) {
      assert.deepEqual(trace(lines.filter((l) => l.file === file)), own, file);
    }
    // Both flows were in flight at once (the server held each until the other arrived), yet
    // each flow's lines form one block: a flow's lines are held until it ends.
    for (const file of ["a.yaml", "b.yaml"]) {
      const at = lines.flatMap((l, i) => l.file === file ? [i] : []);
      assert.equal(at.at(-1)! - at[0], at.length - 1, `${file} is one block`);
    }
    // And one write: run_start, a's lines, b's lines (in the order they ended), run_end.
    assert.deepEqual(out.calls.map((c) => linesOf(c).length), [1, own.length, own.length, 1]);
    const starts = lines.filter((l) => l.event === "flow_start").map((l) => l.ts as string);
    const ends = lines.filter((l) => l.event === "flow_end").map((l) => l.ts as string);
    assert.ok(
      starts.every((s) => ends.every((e) => s <= e)),
      "both flows started before either ended",
    );
    assert.equal(lines[0].event, "run_start");
    assert.equal(lines.at(-1)!.event, "run_end");
    // A step's assertion lines and its step_end are never split by another flow.
    lines.forEach((line, i) => {
      if (line.event !== "assertion") return;
      const next = lines[i + 1];
      assert.equal(next.file, line.file);
      assert.equal(next.step, line.step);
      assert.ok(next.event === "assertion" || next.event === "step_end");
    });
  } finally {
    await api.close();
  }
});

Deno.test("the rows of one data file running at once each keep their lines, as one block each", async () => {
  // Row a's request is held until row b's has arrived, so both rows are in flight at once.
  const api = serveInStep();
  try {
    const rows = flow(
      `name: rows
data: [{name: a, p: a}, {name: b, p: b}]
vars: {p: x}
steps:
  - name: get
    request: {url: "${api.url}/\${vars.p}"}
    assert: {status: 200}
`,
      "rows.yaml",
    );
    const out = collector();
    const result = await runFlows([rows], {
      runId: "r3",
      jobs: 2,
      reporter: logReporter({ sink: out.sink }),
    });
    assert.equal(result.status, "passed");
    const lines = parse(out.raw);
    for (const name of ["rows [a]", "rows [b]"]) {
      const start = lines.findIndex((l) => l.event === "flow_start" && l.name === name);
      const end = lines.findIndex((l) => l.event === "flow_end" && l.name === name);
      assert.ok(start > 0, `${name} has its flow_start`);
      // flow_start, request, response, assertion, step_end, flow_end: one block, one write.
      assert.deepEqual(
        lines.slice(start, end + 1).map((l) => l.event),
        ["flow_start", "request", "response", "assertion", "step_end", "flow_end"],
        name,
      );
    }
    assert.deepEqual(out.calls.map((c) => linesOf(c).length), [1, 6, 6, 1]);
  } finally {
    await api.close();
  }
});

Deno.test("a slow asynchronous sink still gets lines one at a time, in event order", async () => {
  const written: string[] = [];
  let busy = false;
  let calls = 0;
  const log = logReporter({
    now: () => new Date(Date.UTC(2025, 2, 1, 10, 15)),
    // Earlier lines take longer, so a reporter that did not wait would reorder them.
    sink: async (line) => {
      assert.ok(!busy, "the sink is never called while a write is in flight");
      busy = true;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 8 - calls++)));
      written.push(line);
      busy = false;
    },
  });
  await log.onRunStart?.({ run_id: "r3", runner_version: "0.1.0", started_at: "", files: [] });
  // Hooks of different flows are called without waiting for one another, as concurrent flows do.
  const pending: Promise<void>[] = [];
  for (let i = 0; i < 8; i++) {
    const ref: FlowRef = { file: `f${i}.yaml`, name: `f${i}` };
    pending.push(
      Promise.resolve(log.onRequest?.(ref, { step: "s", attempt: 1, method: "GET", url: `u${i}` })),
    );
  }
  const last = pending.at(-1)!.then(() => written.length);
  await Promise.all(pending);
  assert.equal(await last, 9, "a hook resolves once its own line is written");
  const lines = parse(written);
  assert.deepEqual(
    lines.slice(1).map((l) => l.file),
    [0, 1, 2, 3, 4, 5, 6, 7].map((i) => `f${i}.yaml`),
  );
  for (const line of lines) assert.equal(line.ts, "2025-03-01T10:15:00.000Z");
});

Deno.test("a failed write rejects its own event only; later lines are still written", async () => {
  const written: string[] = [];
  const log = logReporter({
    sink: (line) => {
      if (line.includes('"bad"')) throw new Error("disk full");
      written.push(line);
    },
  });
  const ended = (name: string): FlowResult => ({
    file: `${name}.yaml`,
    name,
    status: "skipped",
    started_at: "",
    duration_ms: 0,
    steps: [],
  });
  const bad = log.onFlowEnd?.(ended("bad"));
  const good = log.onFlowEnd?.(ended("good"));
  await assert.rejects(Promise.resolve(bad), /disk full/);
  await good;
  assert.deepEqual(parse(written).map((l) => l.name), ["good"]);
});

Deno.test("odd names stay on one line and read back unchanged; run_id is null before a run starts", async () => {
  const out = collector();
  const log = logReporter({ sink: out.sink });
  const name = "wait for 'ready'\nstate\u2028next\u2029\r\t\"quoted\" \\ é 🙂";
  const ref: FlowRef = { file: "dir/odd.yaml", name };
  await log.onFlowStart?.(ref);
  const step: StepResult = {
    name,
    status: "passed",
    duration_ms: 1,
    attempts: 1,
    line: 1,
    column: 1,
    request: null,
    response: null,
    assertions: [{
      phase: "assert",
      path: "$.json.x",
      operator: "equals",
      expected: { nested: [1, "two", null] },
      actual: undefined,
      found: false,
      passed: false,
      message: "line\nbreak",
      line: 3,
      column: 7,
    }],
    captures: [],
  };
  await log.onStepEnd?.(ref, step);
  assert.equal(out.raw.length, 0, "a flow's lines are held until it ends");
  await log.onFlowEnd?.({
    file: ref.file,
    name,
    status: "passed",
    started_at: "",
    duration_ms: 1,
    steps: [step],
  });
  const lines = parse(out.raw);
  assert.equal(lines.length, 4);
  assert.equal(lines[0].name, name);
  assert.equal(lines[1].step, name);
  assert.deepEqual(lines[1].expected, { nested: [1, "two", null] });
  assert.equal(lines[1].actual, null);
  assert.equal(lines[1].message, "line\nbreak");
  for (const line of lines) assert.equal(line.run_id, null);
});

Deno.test("a flow that never started has only a flow_end line, saying why", async () => {
  const api = serve(() => new Response("no", { status: 500 }));
  try {
    const make = (name: string) =>
      flow(
        `name: ${name}\nsteps:\n  - name: s\n    request: {url: "${api.url}/"}\n    assert: {status: 200}\n`,
        `${name}.yaml`,
      );
    const out = collector();
    await runFlows([make("first"), make("second")], {
      runId: "r4",
      jobs: 1,
      failFast: true,
      reporter: logReporter({ sink: out.sink }),
    });
    const lines = parse(out.raw).filter((l) => l.file === "second.yaml");
    assert.deepEqual(trace(lines), ["flow_end skipped"]);
    assert.match(lines[0].message as string, /--fail-fast/);
    assert.deepEqual(lines[0].steps, { total: 1, passed: 0, failed: 0, error: 0, skipped: 1 });
  } finally {
    await api.close();
  }
});

Deno.test("an interrupted run says so on run_end", async () => {
  const controller = new AbortController();
  const api = serve(() => {
    controller.abort("SIGINT");
    return Response.json({});
  });
  try {
    const out = collector();
    await runFlows([
      flow(
        `name: stop\nsteps:\n  - name: s\n    request: {url: "${api.url}/"}\n  - name: t\n    request: {url: "${api.url}/"}\n`,
        "stop.yaml",
      ),
    ], { runId: "r5", signal: controller.signal, reporter: logReporter({ sink: out.sink }) });
    const lines = parse(out.raw);
    assert.equal(lines.at(-1)!.interrupted, "SIGINT");
    const skipped = lines.find((l) => l.event === "step_end" && l.step === "t")!;
    assert.equal(skipped.failure_kind, "interrupted");
  } finally {
    await api.close();
  }
});
