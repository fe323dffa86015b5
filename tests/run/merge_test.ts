import assert from "node:assert/strict";
import { mergeResults, parseJsonReport } from "../../lib/run/merge.ts";
import { toJsonReport } from "../../lib/report/json.ts";
import {
  type AssertionResult,
  type FlowResult,
  type RunResult,
  type Status,
  type StepResult,
  totalsOf,
} from "../../lib/model/result.ts";
import { UsageError } from "../../lib/model/errors.ts";
import { usageError } from "../support/errors.ts";

function check(passed: boolean, over: Partial<AssertionResult> = {}): AssertionResult {
  return {
    phase: "assert",
    path: "$.json.state",
    operator: "equals",
    expected: "ready",
    actual: passed ? "ready" : "pending",
    found: true,
    passed,
    message: passed ? "$.json.state equals ready" : 'expected "ready", got "pending"',
    line: 9,
    column: 11,
    ...over,
  };
}

function step(
  name: string,
  status: Status,
  assertions: AssertionResult[] = [],
  over: Partial<StepResult> = {},
): StepResult {
  const sent = status !== "skipped";
  return {
    name,
    status,
    duration_ms: sent ? 12.5 : 0,
    attempts: sent ? 1 : 0,
    line: 4,
    column: 5,
    request: sent ? { method: "GET", url: `http://localhost:8080/${name}` } : null,
    response: status === "passed" || status === "failed" ? { status: 200 } : null,
    assertions,
    captures: [],
    ...(status === "passed" ? {} : { message: `${name} did not pass` }),
    ...over,
  };
}

function flow(file: string, status: Status, started_at: string, steps: StepResult[]): FlowResult {
  return {
    file,
    name: file.replace(/^.*\//, "").replace(/\.yaml$/, ""),
    status,
    started_at,
    duration_ms: 40.2,
    steps,
  };
}

/** The flows of one suite; the keys are the files. */
function suite() {
  const at = "2025-03-01T10:15:00.200Z";
  return {
    login: flow("flows/a_login.yaml", "passed", at, [
      step("login", "passed", [check(true, { path: "status", operator: "equals" })], {
        captures: ["token"],
      }),
      step("me", "passed", [check(true)]),
    ]),
    refresh: flow("flows/auth/refresh.yaml", "error", at, [
      step("login", "passed", [check(true)]),
      step("refresh", "error", [], { failure_kind: "request", message: "connection refused" }),
      step("use", "skipped", [], { failure_kind: "skipped", message: "refresh did not pass" }),
    ]),
    items: flow("flows/b_items.yaml", "failed", at, [
      step("create", "passed", [
        check(true),
        check(true, { operator: "type", expected: "string" }),
      ]),
      step("check", "failed", [check(true), check(false)], {
        failure_kind: "assertion",
        response: {
          status: 200,
          body_excerpt: '{"state":"pending"}',
          content_type: "application/json",
        },
      }),
      step("delete", "skipped", [], { failure_kind: "skipped", message: "check did not pass" }),
    ]),
    create: flow("flows/items/create.yaml", "passed", at, [
      step("create", "passed", [check(true)]),
    ]),
    poll: flow("flows/items/poll.yaml", "failed", at, [
      step("create", "passed", [check(true)]),
      step("poll", "failed", [check(false, { phase: "until" })], {
        attempts: 5,
        failure_kind: "until",
      }),
    ]),
    z: flow("flows/z.yaml", "passed", at, [step("ping", "passed")]),
    upper: flow("flows/Z_upper.yaml", "passed", at, [step("ping", "passed", [check(true)])]),
    health: flow("other/health.yaml", "passed", at, [step("health", "passed", [check(true)])]),
  };
}

function shard(
  flows: FlowResult[],
  started_at: string,
  duration_ms: number,
  run_id = "R7",
): RunResult {
  return {
    run_id,
    runner_version: "0.1.0",
    started_at,
    duration_ms,
    status: flows.every((f) => f.status === "passed") ? "passed" : "failed",
    totals: totalsOf(flows),
    flows,
  };
}

/** Three shards of one run; within a shard, flows are in key order, not file order. */
function shards(f = suite()) {
  return [
    {
      label: "shard-1.json",
      result: shard([f.poll, f.login], "2025-03-01T10:15:00.000Z", 2000.04),
    },
    {
      label: "shard-2.json",
      result: shard([f.health, f.items, f.upper], "2025-03-01T10:14:59.750Z", 1500.2),
    },
    {
      label: "shard-3.json",
      result: shard([f.refresh, f.create, f.z], "2025-03-01T10:15:00.100Z", 2300.06),
    },
  ];
}

Deno.test("three disjoint shards merge into the result of one run", () => {
  const f = suite();
  const merged = mergeResults(shards(f));
  const expected: RunResult = {
    run_id: "R7",
    runner_version: "0.1.0",
    started_at: "2025-03-01T10:14:59.750Z", // shard 2 started first
    // 10:14:59.750 to shard 3's end, 10:15:00.100 + 2300.06 ms = 10:15:02.40006.
    duration_ms: 2650.1,
    status: "failed",
    totals: {
      flows: { total: 8, passed: 5, failed: 2, error: 1, skipped: 0 },
      steps: { total: 14, passed: 9, failed: 2, error: 1, skipped: 2 },
      assertions: { total: 12, passed: 10, failed: 2 },
    },
    // Code-point order: "Z" before "a", "a_" before "au", "items/" before "z".
    flows: [f.upper, f.login, f.refresh, f.items, f.create, f.poll, f.z, f.health],
  };
  assert.deepEqual(merged, expected);
});

Deno.test("the merge does not depend on the order of the inputs, nor change them", () => {
  const inputs = shards();
  const before = structuredClone(inputs);
  const merged = mergeResults(inputs);
  assert.deepEqual(inputs, before);
  assert.deepEqual(mergeResults([inputs[2], inputs[0], inputs[1]]), merged);
});

Deno.test("a merged run passes only when every flow passed", () => {
  const f = suite();
  const passing = mergeResults([
    { label: "1.json", result: shard([f.login, f.z], "2025-03-01T10:15:00.000Z", 10) },
    { label: "2.json", result: shard([f.create], "2025-03-01T10:15:00.000Z", 10) },
  ]);
  assert.equal(passing.status, "passed");
  const empty = mergeResults([
    { label: "1.json", result: shard([f.login], "2025-03-01T10:15:00.000Z", 10) },
    // A shard with no files (more shards than files) still writes a report.
    { label: "2.json", result: shard([], "2025-03-01T10:15:00.000Z", 3) },
  ]);
  assert.equal(empty.status, "passed");
  assert.equal(empty.duration_ms, 10);
  const failing = mergeResults([
    { label: "1.json", result: shard([f.login], "2025-03-01T10:15:00.000Z", 10) },
    // A wrong status in an input does not matter: the status is taken from the flows.
    {
      label: "2.json",
      result: { ...shard([f.refresh], "2025-03-01T10:15:00.000Z", 10), status: "passed" },
    },
  ]);
  assert.equal(failing.status, "failed");
});

Deno.test("a flow in two inputs is an error naming the file and both inputs", () => {
  const f = suite();
  const error = usageError(() =>
    mergeResults([
      { label: "shard-1.json", result: shard([f.login, f.z], "2025-03-01T10:15:00.000Z", 10) },
      { label: "shard-2.json", result: shard([f.create], "2025-03-01T10:15:00.000Z", 10) },
      { label: "old/shard-1.json", result: shard([f.z], "2025-03-01T10:15:00.000Z", 10) },
    ])
  );
  assert.equal(error.code, "duplicate-flow");
  assert.equal(
    error.message,
    'Flow "flows/z.yaml" is in both "shard-1.json" and "old/shard-1.json".',
  );
  assert.equal(
    error.hint,
    "Shards are disjoint: pass each shard's report once, all from the same run (same paths and the same N in --shard I/N).",
  );
});

Deno.test("run id: the common one, else the distinct ids in input order joined with +", () => {
  const f = suite();
  const at = "2025-03-01T10:15:00.000Z";
  const ids = (...runIds: string[]) =>
    mergeResults(runIds.map((id, i) => ({
      label: `${i}.json`,
      result: shard([[f.login, f.z, f.create][i]], at, 1, id),
    }))).run_id;
  assert.equal(ids("R7", "R7", "R7"), "R7");
  assert.equal(ids("R2", "R1"), "R2+R1");
  assert.equal(ids("R1", "R2", "R1"), "R1+R2");
});

Deno.test("the runner version of the first input is kept when versions differ", () => {
  const f = suite();
  const at = "2025-03-01T10:15:00.000Z";
  const merged = mergeResults([
    { label: "1.json", result: { ...shard([f.login], at, 1), runner_version: "0.2.0" } },
    { label: "2.json", result: shard([f.z], at, 1) },
  ]);
  assert.equal(merged.runner_version, "0.2.0");
});

Deno.test("an interrupted shard makes the merged run interrupted", () => {
  const f = suite();
  const at = "2025-03-01T10:15:00.000Z";
  const merged = mergeResults([
    { label: "1.json", result: shard([f.login], at, 1) },
    { label: "2.json", result: { ...shard([f.z], at, 1), interrupted: "SIGTERM" } },
  ]);
  assert.equal(merged.interrupted, "SIGTERM");
  assert.ok(!("interrupted" in mergeResults(shards())));
});

Deno.test("merging nothing is a usage error", () => {
  const error = usageError(() => mergeResults([]));
  assert.equal(error.code, "no-reports");
  assert.equal(error.message, "No reports to merge.");
});

Deno.test("a start time that is not a time is a usage error naming the input", () => {
  const error = usageError(() =>
    mergeResults([{ label: "x.json", result: shard([], "yesterday", 1) }])
  );
  assert.equal(error.code, "bad-report");
  assert.equal(
    error.message,
    '"x.json" is not a flowrun JSON report: started_at must be an ISO 8601 date-time, got "yesterday".',
  );
});

Deno.test("parseJsonReport reads back what the JSON reporter writes", () => {
  for (const { result } of shards()) {
    const text = JSON.stringify(toJsonReport(result), null, 2) + "\n";
    assert.deepEqual(parseJsonReport(text, "shard.json"), result);
  }
  const merged = mergeResults(shards());
  const again = parseJsonReport(JSON.stringify(toJsonReport(merged)), "merged.json");
  assert.deepEqual(again, merged);
  // Merging the merged report with nothing else gives it back.
  assert.deepEqual(mergeResults([{ label: "merged.json", result: again }]), merged);
});

Deno.test("parseJsonReport keeps fields a later schema version 1 may add", () => {
  const report = { ...toJsonReport(shards()[0].result), coverage: { endpoints: 3 } };
  report.flows = report.flows.map((f) => ({ ...f, tags: ["smoke"] }));
  const parsed = parseJsonReport(JSON.stringify(report), "new.json") as unknown as {
    coverage: unknown;
    flows: { tags: unknown }[];
  };
  assert.deepEqual(parsed.coverage, { endpoints: 3 });
  assert.deepEqual(parsed.flows[0].tags, ["smoke"]);
});

Deno.test("parseJsonReport rejects what is not a flowrun report, saying why", () => {
  const good = () => JSON.parse(JSON.stringify(toJsonReport(shards()[0].result)));
  const edit = (change: (report: Record<string, unknown>) => void) => {
    const report = good();
    change(report);
    return JSON.stringify(report);
  };
  const syntax = (text: string) => {
    try {
      JSON.parse(text);
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error("valid JSON");
  };
  const REPORT_HINT =
    "Pass the files written by flowrun run --report-json (not the JUnit reports).";
  const cases: [string, string, string][] = [
    [
      '{"schema_version": 1, "run_id": ',
      `it is not valid JSON (${syntax('{"schema_version": 1, "run_id": ')})`,
      REPORT_HINT,
    ],
    ["<testsuites/>", `it is not valid JSON (${syntax("<testsuites/>")})`, REPORT_HINT],
    ["  \n", "the file is empty", REPORT_HINT],
    ["[]", "the top level must be an object, got an array", REPORT_HINT],
    ["{}", "schema_version is missing", REPORT_HINT],
    [
      edit((r) => (r.schema_version = 2)),
      "schema_version is 2, but this flowrun reads version 1",
      "Merge with the flowrun version that wrote the report, or rerun the shards with this one.",
    ],
    [
      edit((r) => (r.schema_version = "1")),
      'schema_version is "1", but this flowrun reads version 1',
      "Merge with the flowrun version that wrote the report, or rerun the shards with this one.",
    ],
    [edit((r) => delete r.flows), "flows is missing", REPORT_HINT],
    [edit((r) => (r.flows = {})), "flows must be an array, got an object", REPORT_HINT],
    [edit((r) => delete r.run_id), "run_id is missing", REPORT_HINT],
    [
      edit((r) => (r.duration_ms = "2s")),
      "duration_ms must be a number, got a string",
      REPORT_HINT,
    ],
    [
      edit((r) => (r.status = "error")),
      'status must be one of "passed", "failed", got "error"',
      REPORT_HINT,
    ],
    [
      edit((r) => (r.started_at = "1 March 2025")),
      'started_at must be an ISO 8601 date-time, got "1 March 2025"',
      REPORT_HINT,
    ],
    [edit((r) => (r.totals = null)), "totals must be an object, got null", REPORT_HINT],
    [
      edit((r) => ((r.totals as { steps: { skipped: number } }).steps.skipped = -1)),
      "totals.steps.skipped must be a whole number >= 0, got -1",
      REPORT_HINT,
    ],
    [
      edit((r) => ((r.flows as { status: string }[])[1].status = "ok")),
      'flows[1].status must be one of "passed", "failed", "error", "skipped", got "ok"',
      REPORT_HINT,
    ],
    [
      edit((r) => delete (r.flows as { steps: { request?: unknown }[] }[])[0].steps[1].request),
      "flows[0].steps[1].request is missing",
      REPORT_HINT,
    ],
    [
      edit((
        r,
      ) => ((r.flows as { steps: { assertions: { passed: unknown }[] }[] }[])[0].steps[0]
        .assertions[0].passed = "yes")
      ),
      "flows[0].steps[0].assertions[0].passed must be a boolean, got a string",
      REPORT_HINT,
    ],
    [
      edit((r) => ((r.flows as { steps: { captures: unknown[] }[] }[])[1].steps[0].captures = [1])),
      "flows[1].steps[0].captures[0] must be a string, got a number",
      REPORT_HINT,
    ],
  ];
  for (const [text, reason, hint] of cases) {
    const error = usageError(() => parseJsonReport(text, "reports/shard-2.json"));
    assert.equal(error.code, "bad-report", reason);
    assert.equal(error.message, `"reports/shard-2.json" is not a flowrun JSON report: ${reason}.`);
    assert.equal(error.hint, hint, reason);
  }
});

// ---------------------------------------------------------------------------
// Crafted reports: every input is read, or refused in one bad-report message.

/** A valid report that uses every field the checker, the merge and the writers read. */
function fullReport(file: string): Record<string, unknown> {
  const traced = step("login & fetch", "failed", [check(false), check(true, { phase: "until" })], {
    start_ms: 1.5,
    attempt_starts_ms: [0, 100.5],
    attempts: 2,
    request: {
      method: "POST",
      url: "http://x.test/login?a=1&b=<2>",
      headers: { "content-type": "application/json", "x-odd": "a]]>b" },
      body: '{"user":"ann"}',
    },
    response: {
      status: 500,
      content_type: "application/json",
      headers: { "set-cookie": "***" },
      body: '{"error":"boom"}',
      body_excerpt: '{"error":"boom"}',
      body_truncated: 12,
    },
    trace: { trace_id: "0af7651916cd43dd8448eb211c80319c", span_id: "b7ad6b7169203331" },
    captures: ["token"],
    failure_kind: "assertion",
  });
  const skipped = step("then", "skipped", [], { failure_kind: "skipped" });
  const errored = step("call", "error", [], { failure_kind: "request", response: null });
  const flows = [
    {
      ...flow(file, "failed", "2025-03-01T10:15:00.000Z", [traced, skipped]),
      trace_id: "0af7651916cd43dd8448eb211c80319c",
    },
    flow(`${file}.2.yaml`, "error", "2025-03-01T10:15:01.000Z", [errored]),
  ];
  const result: RunResult = {
    run_id: "R1",
    runner_version: "0.1.0",
    started_at: "2025-03-01T10:15:00.000Z",
    duration_ms: 1200,
    status: "failed",
    interrupted: "SIGINT",
    problems: [{
      file,
      line: 1,
      column: 2,
      code: "unknown-key",
      message: "Unknown key.",
      hint: "h",
    }],
    totals: totalsOf(flows),
    flows,
  };
  return JSON.parse(JSON.stringify(toJsonReport(result)));
}

function seeded(seed: number): () => number {
  return () => (seed = (seed * 16807) % 2147483647) / 2147483647;
}

/** JSON text of objects and arrays nested `depth` deep, built as text: no recursion anywhere. */
function nestedText(depth: number): string {
  const open = [];
  const close = [];
  for (let i = 0; i < depth; i++) {
    open.push(i % 2 ? "[" : '{"a":');
    close.push(i % 2 ? "]" : "}");
  }
  return `${open.join("")}1${close.reverse().join("")}`;
}

/** Stands for a value nested 20,000 deep until the document is text. */
const DEEP = "\u0001deep";

const ODD_VALUES: unknown[] = [
  null,
  0,
  -1,
  0.5,
  1e308,
  -1e308,
  2 ** 53 + 2,
  "",
  "x",
  "1",
  "passed",
  "2025-03-01T10:15:00.000Z",
  "\u0000\u001b[2J\u202e\ud800",
  "]]>&<'\"",
  "x".repeat(5000),
  true,
  false,
  [],
  [1, "a", null],
  {},
  { trace_id: 1, span_id: [] },
  { a: { b: { c: {} } } },
];

/** Every location in a document, as key paths. */
function locations(doc: unknown): (string | number)[][] {
  const out: (string | number)[][] = [];
  const stack: [unknown, (string | number)[]][] = [[doc, []]];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    out.push(path);
    if (value !== null && typeof value === "object") {
      for (const [key, item] of Object.entries(value)) {
        stack.push([item, [...path, Array.isArray(value) ? Number(key) : key]]);
      }
    }
  }
  return out;
}

/** One to three random edits of a valid report, as JSON text. */
function mutated(next: () => number): string {
  const doc = fullReport("flows/a.yaml");
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)];
  const edits = 1 + Math.floor(next() * 3);
  let text = "";
  for (let e = 0; e < edits; e++) {
    const path = pick(locations(doc));
    let parent = doc as Record<string | number, unknown>;
    for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
    const key = path.at(-1);
    const roll = next();
    if (key === undefined) continue;
    if (roll < 0.08) parent[key] = DEEP;
    else if (roll < 0.2) delete parent[key];
    else if (roll < 0.3 && typeof parent === "object" && !Array.isArray(parent)) {
      // A key of the prototype's: must neither be trusted nor pollute anything.
      Object.defineProperty(
        parent,
        pick(["__proto__", "constructor", "toString", "hasOwnProperty"]),
        {
          value: pick(ODD_VALUES),
          enumerable: true,
          configurable: true,
          writable: true,
        },
      );
    } else parent[key] = pick(ODD_VALUES);
  }
  text = JSON.stringify(doc).replaceAll(JSON.stringify(DEEP), nestedText(20_000));
  // What JSON.stringify cannot write: numbers beyond a double, and a raw __proto__ key.
  const roll = next();
  if (roll < 0.1) text = text.replace(/:(\d+(\.\d+)?)([,}])/, ":1e999$3");
  else if (roll < 0.15) {
    text = text.replace(/:(\d+(\.\d+)?)([,}])/, ":-123456789012345678901234567890$3");
  } else if (roll < 0.2) {
    text = text.replace('"captures":', '"__proto__":{"polluted":true},"captures":');
  } else if (roll < 0.25) text = text.replace('"flows":', `"flows":${"[".repeat(20_000)}`);
  return text;
}

const MESSAGE = /^"r\d+\.json" is not a flowrun JSON report: [^\n]+\.$/;

Deno.test("1,500 crafted reports: parse, merge and JUnit never throw anything but bad-report", async () => {
  const { toJUnitXml } = await import("../../lib/report/junit.ts");
  const { XMLValidator } = await import("fast-xml-parser");
  const next = seeded(20_251_122);
  const other = {
    label: "other.json",
    result: parseJsonReport(JSON.stringify(fullReport("flows/z.yaml")), "other.json"),
  };
  let read = 0;
  let refused = 0;
  for (let i = 0; i < 1500; i++) {
    const text = mutated(next);
    const label = `r${i}.json`;
    try {
      const result = parseJsonReport(text, label);
      const merged = mergeResults([{ label, result }, other]);
      assert.ok(Number.isFinite(merged.duration_ms), `input ${i}: a finite merged duration`);
      const xml = toJUnitXml(merged);
      assert.equal(XMLValidator.validate(xml), true, `input ${i}: well-formed JUnit`);
      JSON.stringify(toJsonReport(merged));
      read++;
    } catch (error) {
      if (!(error instanceof UsageError) || error.code !== "bad-report") {
        assert.fail(`input ${i} threw ${(error as Error).stack}\n${text.slice(0, 300)}`);
      }
      assert.match(error.message, MESSAGE, `input ${i}`);
      assert.ok(error.message.length < 300, `input ${i}: a short message: ${error.message}`);
      const raw = [...error.message].find((c) => c < " " || (c >= "\x7f" && c <= "\x9f"));
      assert.equal(raw, undefined, `input ${i}: no raw control character`);
      assert.ok(!error.message.includes("\u202e"), `input ${i}: no bidi override`);
      refused++;
    }
    assert.equal(({} as Record<string, unknown>).polluted, undefined, "no prototype pollution");
  }
  assert.ok(read > 50 && refused > 500, `both outcomes reached: ${read} read, ${refused} refused`);
});

Deno.test("crafted reports are refused naming the exact JSON location", () => {
  // deno-lint-ignore no-explicit-any
  const cases: [(r: Record<string, any>) => void, string][] = [
    [
      (r) => (r.flows[0].steps[0].trace.trace_id = 7),
      "flows[0].steps[0].trace.trace_id must be a string, got a number",
    ],
    [
      (r) => (r.flows[0].steps[0].request.headers["x-odd"] = 1),
      'flows[0].steps[0].request.headers["x-odd"] must be a string, got a number',
    ],
    [
      (r) => (r.duration_ms = 1e308),
      "duration_ms must be from 0 to 8.64e15 milliseconds, got 1e+308",
    ],
    [
      (r) => (r.flows[1].steps[0].duration_ms = -1),
      "flows[1].steps[0].duration_ms must be from 0 to 8.64e15 milliseconds, got -1",
    ],
    [
      (r) => (r.flows[0].steps[0].attempt_starts_ms = [0, "1"]),
      "flows[0].steps[0].attempt_starts_ms[1] must be a number, got a string",
    ],
    [
      (r) => (r.flows[0].steps[0].response.status = 200.5),
      "flows[0].steps[0].response.status must be a whole number >= 0, got 200.5",
    ],
    [(r) => (r.problems[0].line = "1"), 'problems[0].line must be a whole number >= 0, got "1"'],
    [
      (r) => (r.flows[0].status = "\u001b[2Jok\u202e"),
      'flows[0].status must be one of "passed", "failed", "error", "skipped", got "\\u001b[2Jok\\u202e"',
    ],
  ];
  for (const [edit, reason] of cases) {
    const report = fullReport("flows/a.yaml");
    edit(report);
    const error = usageError(() => parseJsonReport(JSON.stringify(report), "shard-2.json"));
    assert.equal(error.message, `"shard-2.json" is not a flowrun JSON report: ${reason}.`);
  }
  const deep = JSON.stringify(fullReport("flows/a.yaml")).replace(
    '"captures":["token"]',
    `"captures":${nestedText(1200)}`,
  );
  assert.match(
    usageError(() => parseJsonReport(deep, "d.json")).message,
    /^"d\.json" is not a flowrun JSON report: flows\[0\]\.steps\[0\]\.captures[.a[\]0]+… nests deeper than 1000 levels\.$/,
  );
  const huge = JSON.stringify(fullReport("flows/a.yaml")).replace(
    '"duration_ms":1200',
    '"duration_ms":1e999',
  );
  assert.equal(
    usageError(() => parseJsonReport(huge, "h.json")).message,
    '"h.json" is not a flowrun JSON report: duration_ms must be a number, got one beyond ±1.8e308.',
  );
});

Deno.test("a report with problems merges into a report that keeps them", () => {
  const a = parseJsonReport(JSON.stringify(fullReport("flows/a.yaml")), "a.json");
  const b = parseJsonReport(JSON.stringify(fullReport("flows/b.yaml")), "b.json");
  const merged = mergeResults([{ label: "a.json", result: a }, { label: "b.json", result: b }]);
  assert.deepEqual(merged.problems?.map((p) => p.file), ["flows/a.yaml", "flows/b.yaml"]);
});

Deno.test("flowrun merge and report html refuse crafted files: exit 2, one message, no stack", async () => {
  const { runCli } = await import("../support/cli.ts");
  const dir = await Deno.makeTempDir({ prefix: "flowrun-merge-" });
  try {
    const good = JSON.stringify(fullReport("flows/a.yaml"));
    const crafted: [string, string, RegExp][] = [
      [
        "trace.json",
        good.replace(
          '"trace_id":"0af7651916cd43dd8448eb211c80319c","span_id"',
          '"trace_id":42,"span_id"',
        ),
        /flows\[0\]\.steps\[0\]\.trace\.trace_id must be a string, got a number\.$/,
      ],
      [
        "huge.json",
        good.replace('"duration_ms":1200', '"duration_ms":1e999'),
        /duration_ms must be a number/,
      ],
      [
        "proto.json",
        good.replace('"flows":[', '"flows":{"__proto__":[]},"x":['),
        /flows must be an array, got an object\.$/,
      ],
      [
        "deep.json",
        good.replace(
          '"interrupted":"SIGINT"',
          `"interrupted":${"[".repeat(20_000)}${"]".repeat(20_000)}`,
        ),
        /nests deeper than 1000 levels\.$/,
      ],
      ["junit.json", '<?xml version="1.0"?><testsuites/>', /it is not valid JSON/],
      ["cut.json", good.slice(0, 200), /it is not valid JSON/],
    ];
    for (const [name, text, reason] of crafted) {
      await Deno.writeTextFile(`${dir}/${name}`, text);
      for (
        const args of [
          ["merge", `${dir}/${name}`, "--report-json", `${dir}/out.json`],
          ["report", "html", `${dir}/${name}`, "-o", `${dir}/out.html`],
        ]
      ) {
        const run = await runCli(args);
        assert.equal(run.code, 2, `${name}: ${run.stderr}`);
        const [first, ...rest] = run.stderr.trimEnd().split("\n");
        assert.match(first, /^error\[bad-report\]: ".*" is not a flowrun JSON report: /, name);
        assert.match(first, reason, name);
        assert.deepEqual(rest.map((l) => l.startsWith("  hint: ")), [true], `${name}: one message`);
        assert.doesNotMatch(run.stderr, /internal error|^\s+at /m, name);
      }
    }
    assert.deepEqual(
      (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).filter((n) =>
        n.startsWith("out")
      ),
      [],
      "nothing was written for a refused input",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
