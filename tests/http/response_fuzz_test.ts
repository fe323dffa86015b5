/**
 * Hostile responses, generated: a local server answers with bodies built to
 * break a runner (JSON and XML nested far past every limit, Object.prototype
 * names as keys, very wide lists, long strings, bodies that only look like
 * JSON), and seeded random flows check, capture and reuse them with every
 * operator, XPath and schema. Every flow must end with each step passed,
 * failed or in error with a message, in bounded time, and its result must
 * stay small and serialisable: one flow's content never takes the run down.
 *
 * Seeded, so a failure names the seed and flow that reproduce it.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { runFlows } from "../../lib/run/flows.ts";
import "../support/engines.ts";
import { random } from "../support/hostile.ts";

const SEED = Number(Deno.env.get("FLOWRUN_FUZZ_SEED") ?? 20261125);
const FLOWS = 120;

const nest = (open: string, inner: string, close: string, depth: number) =>
  open.repeat(depth) + inner + close.repeat(depth);

/** Path → body and content type. */
const BODIES: Record<string, [string, string]> = {
  "/deep-object": [nest('{"a":', '{"id":7,"toString":1}', "}", 20_000), "application/json"],
  "/deep-list": [nest("[", '"x"', "]", 50_000), "application/json"],
  "/deep-mixed": [nest('{"a":[', "1", "]}", 5_000), "application/json"],
  "/proto": [
    JSON.stringify({
      __proto__: { polluted: true },
      constructor: { prototype: { x: 1 } },
      toString: "str",
      valueOf: [1, 2],
      hasOwnProperty: null,
      a: { __proto__: 1 },
    }).replace('"a"', '"__proto__":{"polluted":true},"a"'),
    "application/json",
  ],
  "/wide": [
    JSON.stringify({ a: Array.from({ length: 200_000 }, (_, i) => i) }),
    "application/json",
  ],
  "/long": [JSON.stringify({ a: "x".repeat(2_000_000) }), "application/json"],
  "/not-json": ['{"a": [1, 2, {"b": ', "application/json"],
  "/deep-xml": [nest("<a>", "<id>7</id>", "</a>", 5_000), "application/xml"],
  "/deep-html": [nest("<div>", "<p>7</p>", "</div>", 5_000), "text/html"],
  "/empty": ["", "application/json"],
};

const PATHS = [
  "$.json",
  "$.json.a",
  "$.json..id",
  "$.json..a",
  "$.json.constructor",
  "$.json.__proto__",
  "$.json.toString",
  "$.json.constructor.prototype",
  "$.json[?@.toString]",
  "$.json.a[*]",
  "$.json..[?@ == 7]",
  "$.body",
  "$.headers.content-type",
];

const OPERATORS = [
  "exists: true",
  "exists: false",
  "type: object",
  "equals: 7",
  "equals: {a: {a: {}}}",
  "notEquals: [1, 2]",
  "contains: 7",
  "containsAll: [1, 2]",
  "anyOf: [null, str, 1]",
  "length: 3",
  'matches: "^(a+)+$"',
  "gt: 1",
  'equals: "${steps.first.capture.v}"',
];

const XPATHS = ["//id", "count(//a)", "//p", "string(/a/a/a)", "//*[@x]"];

const SCHEMAS = [
  "{type: object, required: [a]}",
  "{$defs: {n: {type: object, properties: {a: {$ref: '#/$defs/n'}}}}, $ref: '#/$defs/n'}",
  "{type: array, items: {$ref: '#'}}",
  '{type: object, patternProperties: {"^(a+)+$": {type: string}}}',
];

/** Where a result's long strings are, for the message of a result that grew too large. */
function largest(value: unknown, at = "$", out: string[] = []): string {
  if (typeof value === "string" && value.length > 100_000) out.push(`${at} (${value.length})`);
  else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) largest(v, `${at}.${k}`, out);
  }
  return out.join(", ");
}

function flowText(i: number, url: string, next: () => number): string {
  const pick = <T>(list: readonly T[]) => list[Math.floor(next() * list.length)];
  const paths = Object.keys(BODIES);
  const checks = Array.from(
    { length: 1 + Math.floor(next() * 4) },
    () =>
      next() < 0.2
        ? `        - { xpath: "${pick(XPATHS)}", exists: true }`
        : `        - { path: "${pick(PATHS)}", ${pick(OPERATORS)} }`,
  );
  const schema = next() < 0.3 ? `      schema: ${pick(SCHEMAS)}\n` : "";
  return `name: fuzz ${i}
steps:
  - name: first
    request: { url: "${url}${pick(paths)}" }
    capture: { v: "${pick(PATHS)}" }
  - name: second
    if: { value: "\${steps.first.capture.v}", exists: true }
    request:
      method: POST
      url: "${url}${pick(paths)}"
      body: { echoed: "\${steps.first.capture.v}", constructor: 1, __proto__: 2 }
    assert:
${schema}      json:
${checks.join("\n")}
  - name: cleanup
    always: true
    request: { url: "${url}/empty" }
`;
}

Deno.test(`hostile responses fail only their steps, with messages, in bounded time (seed ${SEED})`, async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    await req.body?.cancel();
    const [body, type] = BODIES[new URL(req.url).pathname] ?? ["{}", "application/json"];
    return new Response(body, { headers: { "content-type": type } });
  });
  const url = `http://127.0.0.1:${server.addr.port}`;
  const next = random(SEED);
  try {
    const flows = Array.from({ length: FLOWS }, (_, i) => {
      const text = flowText(i, url, next);
      const { flow, problems } = loadFlow(text, `fuzz${i}.yaml`);
      assert.ok(flow, `flow ${i} does not load: ${JSON.stringify(problems)}\n${text}`);
      return flow;
    });
    const started = performance.now();
    const result = await runFlows(flows, { jobs: 2, runId: "fuzz" });
    const seconds = (performance.now() - started) / 1000;
    assert.ok(seconds < 60, `${FLOWS} flows took ${seconds.toFixed(1)} s`);
    assert.equal(result.flows.length, FLOWS);
    for (const [i, flow] of result.flows.entries()) {
      const label = `seed ${SEED}, flow ${i}`;
      const text = JSON.stringify(flow);
      assert.ok(text.length < 1_000_000, `${label}: ${text.length} characters: ${largest(flow)}`);
      assert.doesNotMatch(text, /\\n\s+at |internal error/, `${label}: ${text.slice(0, 2000)}`);
      for (const step of flow.steps) {
        assert.ok(["passed", "failed", "error", "skipped"].includes(step.status), label);
        if (step.status === "failed" || step.status === "error") {
          const said = step.message ?? step.assertions?.find((a) => !a.passed)?.message;
          assert.ok(said, `${label}: step ${step.name} ${step.status} with no message`);
        }
      }
      assert.equal(flow.steps.at(-1)?.name, "cleanup", label);
      assert.equal(flow.steps.at(-1)?.status, "passed", label);
    }
    // The mix reaches the limits: some captures are refused for depth, some checks pass.
    const all = result.flows.flatMap((f) => f.steps);
    assert.ok(all.some((s) => /nested more than 256 levels deep/.test(s.message ?? "")));
    assert.ok(all.some((s) => s.name === "first" && s.status === "passed"));
  } finally {
    await server.shutdown();
  }
});
