import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import {
  JSON_FORMAT,
  type JsonReport,
  jsonReporter,
  REPORT_SCHEMA_VERSION,
  toJsonReport,
} from "../../lib/report/json.ts";
import type {
  AssertionResult,
  CaptureFailure,
  Counts,
  FlowAttempt,
  FlowCounts,
  FlowResult,
  RunResult,
  StepResult,
} from "../../lib/model/result.ts";
import type {
  CoverageShare,
  OpenApiCoverage,
  OperationCoverage,
} from "../../lib/model/coverage.ts";
import type { LatencyStats, LatencySummary, StepLatency } from "../../lib/model/latency.ts";
import { run, skippedStep, writtenAtRunEnd } from "../support/results.ts";
import { renderWhole } from "../../lib/report/streamed.ts";

const SCHEMA_URL = new URL("../../schema/report.schema.json", import.meta.url);
const schema: SchemaObject = JSON.parse(await Deno.readTextFile(SCHEMA_URL));

/**
 * A run with every optional field set somewhere and expected/actual values of
 * every JSON type. Objects are built in a different key order than the report
 * uses, as the runner does when it fills a step in as it goes.
 */
function fixture(): RunResult {
  const check = (over: Partial<AssertionResult>): AssertionResult => ({
    message: "status 200",
    passed: true,
    found: true,
    phase: "assert",
    path: "status",
    operator: "equals",
    expected: 200,
    actual: 200,
    line: 6,
    column: 15,
    ...over,
  });
  const health: FlowResult = {
    file: "flows/health.yaml",
    name: "health",
    status: "passed",
    started_at: "2025-03-01T10:15:00.010Z",
    duration_ms: 12.3,
    steps: [{
      name: "ping",
      status: "passed",
      duration_ms: 11.6,
      attempts: 1,
      line: 3,
      column: 5,
      request: { url: "http://api.test/health", method: "GET" },
      response: { status: 200, content_type: "application/json" },
      assertions: [check({})],
      captures: ["version"],
    }],
  };
  const failedStep: StepResult = {
    name: "wait for 'ready'\nstate",
    status: "passed",
    duration_ms: 0,
    attempts: 3,
    line: 14,
    column: 5,
    request: { method: "GET", url: "http://api.test/orders/42" },
    response: { status: 200, content_type: "application/json" },
    assertions: [
      check({
        phase: "until",
        path: "$.json.state",
        expected: "ready",
        actual: "pending",
        passed: false,
        message: '$.json.state: expected "ready", got "pending"',
        line: 17,
        column: 13,
      }),
      check({
        path: "$.json.items",
        operator: "containsAll",
        expected: [{ id: 1 }, { id: 2 }],
        actual: [{ id: 1, tags: null }],
        passed: false,
        message: "$.json.items: missing 1 of 2 expected elements: [{id: 2}]",
      }),
      check({
        path: "$.json.deleted",
        operator: "exists",
        expected: false,
        actual: null,
        found: false,
      }),
      check({ path: "$.json.total", operator: "lt", expected: 10.5, actual: 3 }),
      check({
        path: "$.json.meta",
        operator: "equals",
        expected: { a: [true, null] },
        actual: { a: [true, null] },
      }),
    ],
    captures: [],
  };
  // Set late and in this order, as `finish()` in the runner does.
  failedStep.response!.body_excerpt = '{"state":"pending","raw":"\u0000\u001b\ud800 ]]> <&>"}';
  failedStep.status = "failed";
  failedStep.failure_kind = "until";
  failedStep.message =
    'Still unmet after 3 attempts: $.json.state: expected "ready", got "pending".';
  failedStep.duration_ms = 1500.4;
  const orders: FlowResult = {
    steps: [
      {
        name: "create",
        status: "passed",
        duration_ms: 20,
        attempts: 1,
        line: 4,
        column: 5,
        request: { method: "POST", url: "http://api.test/orders" },
        response: { status: 201 },
        assertions: [check({ operator: "anyOf", expected: [200, 201], actual: 201 })],
        captures: ["order_id"],
      },
      failedStep,
      skippedStep("cancel", 24, "Skipped: step \"wait for 'ready'\nstate\" failed"),
    ],
    duration_ms: 1530.25,
    started_at: "2025-03-01T10:15:00.030Z",
    status: "failed",
    name: 'orders <create> & "check"',
    file: "flows/orders.yaml",
  };
  const payments: FlowResult = {
    file: "flows/payments.yaml",
    name: "payments",
    status: "error",
    started_at: "2025-03-01T10:15:01.560Z",
    duration_ms: 803,
    steps: [{
      name: "charge",
      status: "error",
      duration_ms: 800,
      attempts: 1,
      line: 3,
      column: 5,
      request: { method: "POST", url: "http://127.0.0.1:9/charge" },
      response: null,
      assertions: [],
      captures: [],
      message: "Connection refused (os error 111).",
      failure_kind: "request",
    }],
  };
  return run([health, orders, payments]);
}

// A small JSON Schema validator for the keywords the report schema uses. It
// throws on any other keyword, so the schema cannot use one that would be
// silently ignored here.
type Schema = boolean | SchemaObject;
interface SchemaObject {
  [keyword: string]: unknown;
}

const ANNOTATIONS = new Set([
  "$schema",
  "$id",
  "$defs",
  "$comment",
  "title",
  "description",
  "format",
]);
const ASSERTIONS = new Set([
  "type",
  "const",
  "enum",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "$ref",
  "anyOf",
  "oneOf",
  "minimum",
]);

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function hasType(value: unknown, type: string): boolean {
  if (type === "integer") return Number.isInteger(value);
  if (type === "number") return typeof value === "number" && Number.isFinite(value);
  return typeOf(value) === type;
}

function resolve(ref: string): Schema {
  assert.ok(ref.startsWith("#/"), `only local references are supported: ${ref}`);
  let node: unknown = schema;
  for (const part of ref.slice(2).split("/")) {
    node = (node as SchemaObject)[part.replaceAll("~1", "/").replaceAll("~0", "~")];
  }
  assert.ok(node !== undefined, `unresolved reference ${ref}`);
  return node as Schema;
}

/** Returns one message per violation, each prefixed by where in the value it is. */
function validate(s: Schema, value: unknown, at = "$"): string[] {
  if (s === true) return [];
  if (s === false) return [`${at}: no value is allowed here`];
  for (const keyword of Object.keys(s)) {
    if (!ANNOTATIONS.has(keyword) && !ASSERTIONS.has(keyword)) {
      throw new Error(`unsupported keyword ${keyword} at ${at}`);
    }
  }
  const errors: string[] = [];
  if (typeof s.$ref === "string") errors.push(...validate(resolve(s.$ref), value, at));
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type as string[] : [s.type as string];
    if (!types.some((t) => hasType(value, t))) {
      return [...errors, `${at}: expected ${types.join(" or ")}, got ${typeOf(value)}`];
    }
  }
  if ("const" in s && !isDeepStrictEqual(value, s.const)) {
    errors.push(`${at}: must be ${JSON.stringify(s.const)}`);
  }
  if (Array.isArray(s.enum) && !s.enum.some((e) => isDeepStrictEqual(value, e))) {
    errors.push(`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(s.enum)}`);
  }
  if (typeof s.minimum === "number" && typeof value === "number" && value < s.minimum) {
    errors.push(`${at}: ${value} is below ${s.minimum}`);
  }
  if (typeOf(value) === "object") {
    const object = value as Record<string, unknown>;
    const properties = (s.properties ?? {}) as Record<string, Schema>;
    for (const key of (s.required ?? []) as string[]) {
      if (!(key in object)) errors.push(`${at}: missing required ${key}`);
    }
    for (const [key, v] of Object.entries(object)) {
      if (key in properties) errors.push(...validate(properties[key], v, `${at}.${key}`));
      else if (s.additionalProperties !== undefined) {
        errors.push(
          ...validate(s.additionalProperties as Schema, v, `${at}.${key}`).map((e) =>
            `${e} (unknown field)`
          ),
        );
      }
    }
  }
  if (Array.isArray(value) && s.items !== undefined) {
    value.forEach((v, i) => errors.push(...validate(s.items as Schema, v, `${at}[${i}]`)));
  }
  if (Array.isArray(s.anyOf) && !s.anyOf.some((sub) => validate(sub, value, at).length === 0)) {
    errors.push(`${at}: matches none of anyOf`);
  }
  if (
    Array.isArray(s.oneOf) &&
    s.oneOf.filter((sub) => validate(sub, value, at).length === 0).length !== 1
  ) {
    errors.push(`${at}: must match exactly one of oneOf`);
  }
  return errors;
}

/** Every object schema in the schema, with where it is, for checks over all of them. */
function objectSchemas(
  s: unknown,
  at = "#",
  out: [string, SchemaObject][] = [],
): [string, SchemaObject][] {
  if (typeof s !== "object" || s === null) return out;
  const node = s as SchemaObject;
  if (node.properties) out.push([at, node]);
  for (const [key, child] of Object.entries(node.properties ?? {})) {
    objectSchemas(child, `${at}/properties/${key}`, out);
  }
  for (const [key, child] of Object.entries((node.$defs ?? {}) as SchemaObject)) {
    objectSchemas(child, `${at}/$defs/${key}`, out);
  }
  if (node.items) objectSchemas(node.items, `${at}/items`, out);
  return out;
}

Deno.test("toJsonReport puts schema_version first and keys in the documented order", () => {
  const report = toJsonReport(fixture());
  assert.deepEqual(Object.keys(report), [
    "schema_version",
    "run_id",
    "runner_version",
    "started_at",
    "duration_ms",
    "status",
    "totals",
    "flows",
  ]);
  assert.deepEqual(Object.keys(report.totals), ["flows", "steps", "assertions"]);
  assert.deepEqual(Object.keys(report.totals.steps), [
    "total",
    "passed",
    "failed",
    "error",
    "skipped",
  ]);
  assert.deepEqual(Object.keys(report.flows[1]), [
    "file",
    "name",
    "status",
    "started_at",
    "duration_ms",
    "steps",
  ]);
  const step = report.flows[1].steps[1];
  assert.deepEqual(Object.keys(step), [
    "name",
    "status",
    "duration_ms",
    "attempts",
    "line",
    "column",
    "request",
    "response",
    "assertions",
    "captures",
    "message",
    "failure_kind",
  ]);
  assert.deepEqual(Object.keys(step.response!), ["status", "body_excerpt", "content_type"]);
  assert.deepEqual(Object.keys(report.flows[0].steps[0].request!), ["method", "url"]);
  assert.deepEqual(Object.keys(step.assertions[0]), [
    "phase",
    "path",
    "operator",
    "expected",
    "actual",
    "found",
    "passed",
    "message",
    "line",
    "column",
  ]);
  assert.ok(!("message" in report.flows[0].steps[0]), "absent optional fields stay absent");
});

Deno.test("results already in report order are shared; others are copied in order, unknown keys last", () => {
  const result = fixture();
  const flow = toJsonReport(result).flows[1];
  const tidy = flow.steps[1];
  // The report's own output is in order: a second pass shares every part instead of copying.
  const again = toJsonReport({ ...result, flows: [flow] }).flows[0];
  assert.equal(again, flow);
  assert.equal(again.steps[1], tidy);
  // An unknown key before a known one, and known keys out of order, make a copy in order.
  const messy = { extra: 1, ...tidy, name: "late" } as StepResult & { extra: number };
  const copied =
    toJsonReport({ ...result, flows: [{ ...flow, steps: [messy] }] }).flows[0].steps[0];
  assert.notEqual(copied, messy);
  assert.deepEqual(Object.keys(copied), [...Object.keys(tidy), "extra"]);
  assert.equal(copied.name, "late");
});

Deno.test("the report written flow by flow is the report written whole, byte for byte", () => {
  const result = fixture();
  const whole = JSON.stringify(toJsonReport(result), null, 2) + "\n";
  assert.equal(renderWhole(JSON_FORMAT, result), whole);
  // Strings with line breaks, indentation-like runs and escapes stay as JSON writes them.
  const odd = 'line 1\n    line 2\t"quoted" \u2028 \\';
  const flows = result.flows.map((f) => ({
    ...f,
    name: odd,
    steps: f.steps.map((s) => ({ ...s, name: odd })),
  }));
  const tricky = { ...result, flows };
  assert.equal(
    renderWhole(JSON_FORMAT, tricky),
    JSON.stringify(toJsonReport(tricky), null, 2) + "\n",
  );
});

Deno.test("the schema lists properties in the order the report writes them", () => {
  // An interrupted, traced run, so the optional fields are present too.
  const traced = fixture();
  traced.flows[1].trace_id = "0af7651916cd43dd8448eb211c80319c";
  traced.flows[1].role = "setup";
  traced.flows[1].steps[1].trace = {
    trace_id: "0af7651916cd43dd8448eb211c80319c",
    span_id: "b7ad6b7169203331",
  };
  traced.flows[1].steps[1].capture_failures = [
    { name: "id", message: "$.json.id matched nothing", line: 9, column: 17 },
  ];
  traced.flows[1].steps[1].note = "sent as Token: the server's WWW-Authenticate asked for it";
  const failing = traced.flows[1].steps[1];
  failing.assertions[0] = {
    ...failing.assertions[0],
    skipped: true,
    name: "the id is a number",
    file: "checks/item.yaml",
  };
  failing.start_ms = 12.5;
  failing.file = "shared/login.yaml";
  failing.attempt_starts_ms = [0, 510.2, 1020.9];
  failing.attempt_statuses = [503, null, 200];
  failing.request = {
    body: "{}",
    headers: { accept: "*/*" },
    curl: "curl 'http://x.test/'",
    ...failing.request!,
  };
  failing.response = {
    body_truncated: 5,
    body: "{...",
    headers: { "x-a": "1" },
    ...failing.response!,
  };
  // A re-run flow: its earlier run, and the run's count of flaky flows.
  traced.flows[1] = {
    ...traced.flows[1],
    flaky: true,
    retries: 2,
    attempts: [{
      attempt: 1,
      status: "failed",
      started_at: traced.flows[1].started_at,
      duration_ms: 3,
      steps: traced.flows[1].steps,
    }],
  };
  traced.totals = { ...traced.totals, flows: { ...traced.totals.flows, flaky: 1 } };
  const share = { total: 2, exercised: 1, percent: 50 };
  const coverage: OpenApiCoverage = {
    document: "api.yaml",
    operations: share,
    responses: share,
    min: 40,
    items: [{
      method: "GET",
      path: "/a",
      exercised: true,
      responses: [{ status: "200", exercised: true }],
      undocumented: [500],
    }],
    unmatched: [{ method: "GET", path: "/b", count: 1 }],
    unmatched_omitted: 3,
    requests_omitted: 2,
  };
  const report = toJsonReport({
    ...traced,
    interrupted: "SIGINT",
    problems: [{ file: "a.yaml", line: 1, column: 1, code: "x", message: "y", hint: "z" }],
    openapi_coverage: [coverage],
    workers: 2,
    latency: {
      repeat: 2,
      concurrency: 1,
      percentiles: "exact",
      iterations: { total: 2, passed: 1, failed: 1, not_run: 0, listed: 2 },
      requests_per_second: 4,
      overall: { requests: 2, p50_ms: 1, p95_ms: 2, p99_ms: 2, max_ms: 2, errors: { status: 1 } },
      steps: [{
        file: "a.yaml",
        flow: "a",
        step: "s",
        requests: 2,
        p50_ms: 1,
        p95_ms: 2,
        p99_ms: 2,
        max_ms: 2,
        errors: { status: 1 },
      }],
    },
  });
  const step = report.flows[1].steps[1];
  assert.deepEqual(
    validate(schema, toJsonReport({ ...fixture(), openapi_coverage: [coverage] })),
    [],
    "a report with coverage is valid",
  );
  const defs = schema.$defs as Record<string, SchemaObject>;
  const keys = (s: unknown) => Object.keys((s as SchemaObject).properties as SchemaObject);
  assert.deepEqual(keys(schema), Object.keys(report));
  assert.deepEqual(keys(defs.flow), Object.keys(report.flows[1]));
  assert.deepEqual(keys(defs.attempt), Object.keys(report.flows[1].attempts![0]));
  assert.deepEqual(keys(defs.flow_counts), Object.keys(report.totals.flows));
  assert.deepEqual(keys(defs.step), Object.keys(step));
  assert.deepEqual(keys(defs.assertion), Object.keys(step.assertions[0]));
  assert.deepEqual(keys(defs.problem), Object.keys(report.problems![0]));
  assert.deepEqual(keys(defs.openapi_coverage), Object.keys(coverage));
  assert.deepEqual(
    keys((defs.step.properties as Record<string, unknown>).response),
    Object.keys(step.response!),
  );
});

Deno.test("schema_version is 1 and the report round-trips through JSON unchanged", () => {
  const result = fixture();
  const before = structuredClone(result);
  const report = toJsonReport(result);
  assert.equal(REPORT_SCHEMA_VERSION, 1);
  assert.equal(report.schema_version, REPORT_SCHEMA_VERSION);
  assert.deepEqual(JSON.parse(JSON.stringify(report)), { schema_version: 1, ...result });
  assert.deepEqual(result, before, "the input is not changed");
  assert.notEqual(
    report.flows[1].steps[1],
    result.flows[1].steps[1],
    "the report does not share step objects",
  );
  assert.equal(
    report.flows[1].steps[1].response!.body_excerpt,
    '{"state":"pending","raw":"\u0000\u001b\ud800 ]]> <&>"}',
    "text is kept as is",
  );
});

Deno.test("jsonReporter writes the pretty-printed report with a final newline", async () => {
  const result = fixture();
  const written = await writtenAtRunEnd((write) => jsonReporter(write), result);
  assert.equal(written.length, 1);
  const text = written[0];
  assert.equal(text, JSON.stringify(toJsonReport(result), null, 2) + "\n");
  assert.ok(text.startsWith('{\n  "schema_version": 1,\n  "run_id": '));
  // A lone surrogate must come out escaped so the file is valid UTF-8.
  assert.ok(text.includes("\\u0000\\u001b\\ud800"));
  assert.ok(new TextDecoder("utf-8", { fatal: true }).decode(new TextEncoder().encode(text)));
});

Deno.test("the schema describes the report and is documented", () => {
  assert.equal(schema.$schema, "https://json-schema.org/draft/2020-12/schema");
  assert.equal(schema.$id, "https://flowrun.dev/schema/report/v1.json");
  assert.equal(typeof schema.title, "string");
  assert.match(schema.description as string, /schema_version/);
  assert.deepEqual(schema.properties && (schema.properties as SchemaObject).schema_version, {
    description: (schema.properties as Record<string, SchemaObject>).schema_version.description,
    const: REPORT_SCHEMA_VERSION,
  });
  const objects = objectSchemas(schema);
  assert.ok(objects.length >= 9, `found ${objects.length} object schemas`);
  for (const [at, node] of objects) {
    assert.equal(node.additionalProperties, false, `${at} must not allow unknown fields`);
    for (const [key, property] of Object.entries(node.properties as Record<string, SchemaObject>)) {
      assert.equal(
        typeof property.description,
        "string",
        `${at}/properties/${key} needs a description`,
      );
    }
  }
});

Deno.test("the report validates against the schema", () => {
  assert.deepEqual(validate(schema, toJsonReport(fixture())), []);
  assert.deepEqual(validate(schema, toJsonReport(run([]))), []);
  assert.deepEqual(validate(schema, JSON.parse(JSON.stringify(toJsonReport(fixture())))), []);
});

Deno.test("the schema rejects what is not a report", () => {
  const good = () => JSON.parse(JSON.stringify(toJsonReport(fixture())));
  const rejects = (change: (r: JsonReport) => void, pattern: RegExp) => {
    const report = good();
    change(report);
    const errors = validate(schema, report);
    assert.ok(
      errors.some((e) => pattern.test(e)),
      `expected ${pattern} among ${JSON.stringify(errors)}`,
    );
  };
  rejects((r) => Object.assign(r, { extra: true }), /^\$\.extra: .*unknown field/);
  rejects(
    (r) => Object.assign(r.flows[1].steps[1], { retries: 2 }),
    /^\$\.flows\[1\]\.steps\[1\]\.retries/,
  );
  rejects(
    (r) => Object.assign(r.flows[1].steps[1].request!, { cookies: {} }),
    /request\.cookies.*unknown field/,
  );
  rejects((r) => Object.assign(r.totals.steps, { flaky: 0 }), /totals\.steps\.flaky/);
  rejects((r) => Object.assign(r, { status: "error" }), /^\$\.status: "error" is not one of/);
  rejects((r) => Object.assign(r.flows[0], { status: "ok" }), /^\$\.flows\[0\]\.status: "ok"/);
  rejects((r) => Object.assign(r.flows[1].steps[0], { status: "PASSED" }), /steps\[0\]\.status/);
  rejects((r) => Object.assign(r.flows[1].steps[1], { failure_kind: "timeout" }), /failure_kind/);
  rejects(
    (r) => Object.assign(r.flows[1].steps[1].assertions[0], { phase: "before" }),
    /assertions\[0\]\.phase/,
  );
  rejects((r) => Object.assign(r, { schema_version: 2 }), /^\$\.schema_version: must be 1/);
  rejects(
    (r) => Object.assign(r.flows[0].steps[0], { line: "3" }),
    /line: expected integer, got string/,
  );
  rejects(
    (r) => Object.assign(r.flows[0].steps[0], { attempts: 1.5 }),
    /attempts: expected integer/,
  );
  rejects((r) => Object.assign(r.flows[0], { duration_ms: -1 }), /duration_ms: -1 is below 0/);
  rejects(
    (r) => Object.assign(r.flows[0].steps[0], { response: "200" }),
    /response: expected object or null/,
  );
  rejects((r) => delete (r as Partial<JsonReport>).run_id, /^\$: missing required run_id/);
  rejects(
    (r) => delete (r.flows[1].steps[1].assertions[0] as Partial<AssertionResult>).actual,
    /missing required actual/,
  );
  rejects(
    (r) => r.flows[0].steps[0].captures.push(7 as unknown as string),
    /captures\[1\]: expected string/,
  );
});

Deno.test("expected and actual may be any JSON value; optional fields may be absent", () => {
  const report = JSON.parse(JSON.stringify(toJsonReport(fixture())));
  const a = report.flows[1].steps[1].assertions[0];
  for (const value of [null, true, 0, -2.5, "", [], [1, "x"], {}, { nested: { deep: [null] } }]) {
    a.expected = value;
    a.actual = value;
    assert.deepEqual(validate(schema, report), [], JSON.stringify(value));
  }
  const step = report.flows[1].steps[1];
  delete step.message;
  delete step.failure_kind;
  delete step.response.body_excerpt;
  delete step.response.content_type;
  assert.deepEqual(validate(schema, report), []);
});

// Whether each field of a type is optional, derived from the type itself, so
// that the records below fail type checking when `lib/model/result.ts` changes.
type Fields<T> = {
  [K in keyof T]-?: Partial<Pick<T, K>> extends Pick<T, K> ? "optional" : "required";
};

const REPORT: Fields<JsonReport> = {
  schema_version: "required",
  run_id: "required",
  runner_version: "required",
  started_at: "required",
  duration_ms: "required",
  status: "required",
  interrupted: "optional",
  problems: "optional",
  totals: "required",
  openapi_coverage: "optional",
  workers: "optional",
  latency: "optional",
  flows: "required",
};
const LATENCY: Fields<LatencySummary> = {
  repeat: "required",
  concurrency: "required",
  percentiles: "required",
  iterations: "required",
  requests_per_second: "required",
  overall: "required",
  steps: "required",
};
const ITERATIONS: Fields<LatencySummary["iterations"]> = {
  total: "required",
  passed: "required",
  failed: "required",
  not_run: "required",
  listed: "required",
};
const LATENCY_STATS: Fields<LatencyStats> = {
  requests: "required",
  p50_ms: "required",
  p95_ms: "required",
  p99_ms: "required",
  max_ms: "required",
  errors: "required",
};
const STEP_LATENCY: Fields<StepLatency> = {
  ...LATENCY_STATS,
  file: "required",
  flow: "required",
  step: "required",
};
const LATENCY_ERRORS: Fields<LatencyStats["errors"]> = {
  status: "optional",
  assertion: "optional",
  network: "optional",
  timeout: "optional",
  capture: "optional",
  until: "optional",
  expression: "optional",
  other: "optional",
};
const COVERAGE: Fields<OpenApiCoverage> = {
  document: "required",
  operations: "required",
  responses: "required",
  min: "optional",
  items: "required",
  unmatched: "required",
  unmatched_omitted: "optional",
  requests_omitted: "optional",
};
const COVERAGE_SHARE: Fields<CoverageShare> = {
  total: "required",
  exercised: "required",
  percent: "required",
};
const OPERATION_COVERAGE: Fields<OperationCoverage> = {
  method: "required",
  path: "required",
  exercised: "required",
  responses: "required",
  undocumented: "required",
};
const RESPONSE_COVERAGE: Fields<OperationCoverage["responses"][number]> = {
  status: "required",
  exercised: "required",
};
const UNMATCHED: Fields<OpenApiCoverage["unmatched"][number]> = {
  method: "required",
  path: "required",
  count: "required",
};
const PROBLEM: Fields<NonNullable<RunResult["problems"]>[number]> = {
  file: "required",
  line: "required",
  column: "required",
  code: "required",
  message: "required",
  hint: "optional",
};
const TOTALS: Fields<RunResult["totals"]> = {
  flows: "required",
  steps: "required",
  assertions: "required",
};
const ASSERTION_TOTALS: Fields<RunResult["totals"]["assertions"]> = {
  total: "required",
  passed: "required",
  failed: "required",
};
const COUNTS: Fields<Counts> = {
  total: "required",
  passed: "required",
  failed: "required",
  error: "required",
  skipped: "required",
};
const FLOW_COUNTS: Fields<FlowCounts> = { ...COUNTS, flaky: "optional" };
const FLOW: Fields<FlowResult> = {
  file: "required",
  name: "required",
  status: "required",
  trace_id: "optional",
  started_at: "required",
  duration_ms: "required",
  steps: "required",
  flaky: "optional",
  retries: "optional",
  attempts: "optional",
  role: "optional",
};
const ATTEMPT: Fields<FlowAttempt> = {
  attempt: "required",
  status: "required",
  started_at: "required",
  duration_ms: "required",
  steps: "required",
};
const TRACE: Fields<NonNullable<StepResult["trace"]>> = {
  trace_id: "required",
  span_id: "required",
};
const STEP: Fields<StepResult> = {
  name: "required",
  status: "required",
  duration_ms: "required",
  start_ms: "optional",
  attempt_starts_ms: "optional",
  attempt_statuses: "optional",
  attempts: "required",
  line: "required",
  column: "required",
  file: "optional",
  request: "required",
  response: "required",
  assertions: "required",
  captures: "required",
  capture_failures: "optional",
  trace: "optional",
  message: "optional",
  note: "optional",
  failure_kind: "optional",
};
const REQUEST: Fields<NonNullable<StepResult["request"]>> = {
  method: "required",
  url: "required",
  headers: "optional",
  body: "optional",
  curl: "optional",
};
const RESPONSE: Fields<NonNullable<StepResult["response"]>> = {
  status: "required",
  body_excerpt: "optional",
  content_type: "optional",
  headers: "optional",
  body: "optional",
  body_truncated: "optional",
};
const CAPTURE_FAILURE: Fields<CaptureFailure> = {
  name: "required",
  message: "required",
  line: "required",
  column: "required",
};
const ASSERTION: Fields<AssertionResult> = {
  phase: "required",
  path: "required",
  operator: "required",
  expected: "required",
  actual: "required",
  found: "required",
  passed: "required",
  skipped: "optional",
  message: "required",
  name: "optional",
  file: "optional",
  line: "required",
  column: "required",
};

Deno.test("the schema has exactly the fields of lib/model/result.ts, required unless optional there", () => {
  const at = (pointer: string) => resolve(pointer) as SchemaObject;
  const pairs: [string, Record<string, "optional" | "required">][] = [
    ["#", REPORT],
    ["#/properties/totals", TOTALS],
    ["#/properties/totals/properties/assertions", ASSERTION_TOTALS],
    ["#/$defs/counts", COUNTS],
    ["#/$defs/flow_counts", FLOW_COUNTS],
    ["#/$defs/flow", FLOW],
    ["#/$defs/attempt", ATTEMPT],
    ["#/$defs/step", STEP],
    ["#/$defs/step/properties/request", REQUEST],
    ["#/$defs/step/properties/response", RESPONSE],
    ["#/$defs/step/properties/trace", TRACE],
    ["#/$defs/step/properties/capture_failures/items", CAPTURE_FAILURE],
    ["#/$defs/assertion", ASSERTION],
    ["#/$defs/problem", PROBLEM],
    ["#/$defs/openapi_coverage", COVERAGE],
    ["#/$defs/coverage_share", COVERAGE_SHARE],
    ["#/$defs/openapi_coverage/properties/items/items", OPERATION_COVERAGE],
    [
      "#/$defs/openapi_coverage/properties/items/items/properties/responses/items",
      RESPONSE_COVERAGE,
    ],
    ["#/$defs/openapi_coverage/properties/unmatched/items", UNMATCHED],
    ["#/properties/latency", LATENCY],
    ["#/properties/latency/properties/iterations", ITERATIONS],
    ["#/$defs/latency_stats", LATENCY_STATS],
    ["#/$defs/step_latency", STEP_LATENCY],
    ["#/$defs/latency_errors", LATENCY_ERRORS],
  ];
  for (const [pointer, fields] of pairs) {
    const node = pointer === "#" ? schema : at(pointer);
    assert.deepEqual(
      Object.keys(node.properties as SchemaObject).sort(),
      Object.keys(fields).sort(),
      pointer,
    );
    const required = Object.keys(fields).filter((k) => fields[k] === "required");
    assert.deepEqual(
      [...(node.required as string[])].sort(),
      required.sort(),
      `${pointer} required`,
    );
  }
  assert.equal(objectSchemas(schema).length, pairs.length, "every object schema is checked above");
});

Deno.test("the schema's enums match the status types", () => {
  const defs = schema.$defs as Record<string, SchemaObject>;
  const statuses: Record<StepResult["status"], true> = {
    passed: true,
    failed: true,
    error: true,
    skipped: true,
  };
  assert.deepEqual(defs.status.enum, Object.keys(statuses));
  const kinds: Record<NonNullable<StepResult["failure_kind"]>, true> = {
    assertion: true,
    capture: true,
    until: true,
    request: true,
    expression: true,
    skipped: true,
    interrupted: true,
    invalid: true,
    condition: true,
  };
  assert.deepEqual(
    (defs.step.properties as Record<string, SchemaObject>).failure_kind.enum,
    Object.keys(kinds),
  );
  const runStatuses: Record<RunResult["status"], true> = { passed: true, failed: true };
  assert.deepEqual(
    (schema.properties as Record<string, SchemaObject>).status.enum,
    Object.keys(runStatuses),
  );
  const phases: Record<AssertionResult["phase"], true> = { assert: true, until: true };
  assert.deepEqual(
    (defs.assertion.properties as Record<string, SchemaObject>).phase.enum,
    Object.keys(phases),
  );
});
