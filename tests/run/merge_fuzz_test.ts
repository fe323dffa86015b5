/**
 * Crafted and mutated JSON reports never crash merge or the HTML report:
 * every input is either read, or refused with one bad-report message naming
 * the JSON location. Bounded and seeded.
 */
import assert from "node:assert/strict";
import { mergeResults, parseJsonReport } from "../../lib/run/merge.ts";
import { toHtml } from "../../lib/report/html.ts";
import { toJUnitXml } from "../../lib/report/junit.ts";
import { toJsonReport } from "../../lib/report/json.ts";
import { UsageError } from "../../lib/model/errors.ts";
import { run } from "../support/results.ts";
import { runCli } from "../support/cli.ts";

const step = {
  name: "login",
  status: "failed",
  duration_ms: 3.5,
  start_ms: 0,
  attempts: 1,
  line: 3,
  column: 5,
  request: { method: "POST", url: "http://x.test/login", headers: { a: "b" }, body: "{}" },
  response: { status: 500, content_type: "application/json", body: "{}", body_excerpt: "{}" },
  assertions: [{
    phase: "assert",
    path: "status",
    operator: "equals",
    expected: 200,
    actual: 500,
    found: true,
    passed: false,
    message: "status: expected 200, got 500",
    line: 5,
    column: 9,
  }],
  captures: ["token"],
  trace: { trace_id: "0af7651916cd43dd8448eb211c80319c", span_id: "b7ad6b7169203331" },
  message: "status: expected 200, got 500.",
  failure_kind: "assertion",
};
const valid = JSON.stringify(toJsonReport(run([{
  file: "a.yaml",
  name: "a",
  status: "failed",
  trace_id: "0af7651916cd43dd8448eb211c80319c",
  started_at: "2025-03-01T10:15:00.000Z",
  duration_ms: 4,
  // deno-lint-ignore no-explicit-any
  steps: [step as any],
}])));

function random(seed: number) {
  return () => (seed = (seed * 16807) % 2147483647) / 2147483647;
}

const ODD: unknown[] = [
  null,
  0,
  -1,
  1e308,
  "",
  "x",
  true,
  [],
  {},
  [1, [2]],
  { __proto__: 1 },
  "\u0000",
];

/** Replaces one value somewhere in the document with something odd. */
function mutate(doc: unknown, next: () => number): unknown {
  const paths: (string | number)[][] = [];
  const stack: [unknown, (string | number)[]][] = [[doc, []]];
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    paths.push(path);
    if (v !== null && typeof v === "object") {
      for (const [k, item] of Object.entries(v)) {
        stack.push([item, [...path, Array.isArray(v) ? Number(k) : k]]);
      }
    }
  }
  const path = paths[Math.floor(next() * paths.length)];
  if (path.length === 0) return ODD[Math.floor(next() * ODD.length)];
  let parent = doc as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const roll = next();
  if (roll < 0.1) {
    let deep: unknown = 1;
    for (let i = 0; i < 20_000; i++) deep = [deep];
    parent[path.at(-1)!] = deep;
  } else if (roll < 0.2) delete parent[path.at(-1)!];
  else parent[path.at(-1)!] = ODD[Math.floor(next() * ODD.length)];
  return doc;
}

Deno.test("500 mutated reports are read or refused in one message, never crash", () => {
  const next = random(11);
  let refused = 0;
  for (let i = 0; i < 500; i++) {
    const text = JSON.stringify(mutate(JSON.parse(valid), next));
    try {
      const result = parseJsonReport(text, `r${i}.json`);
      const merged = mergeResults([{ label: `r${i}.json`, result }]);
      toJUnitXml(merged);
      toHtml(merged);
      JSON.stringify(toJsonReport(merged));
    } catch (error) {
      assert.ok(
        error instanceof UsageError,
        `input ${i}: ${(error as Error).stack}\n${text.slice(0, 400)}`,
      );
      assert.equal(error.code, "bad-report");
      assert.ok(error.message.length < 400, error.message);
      refused++;
    }
  }
  assert.ok(refused > 100 && refused < 500, `${refused} refused: the fuzz reaches both outcomes`);
});

Deno.test("merge and report html refuse crafted reports with exit 2 and one message", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-merge-" });
  try {
    const crafted = JSON.parse(valid);
    let deep: unknown = 1;
    for (let i = 0; i < 20_000; i++) deep = [deep];
    crafted.flows[0].steps[0].assertions[0].actual = deep;
    crafted.flows[0].steps[0].trace.trace_id = 42;
    await Deno.writeTextFile(`${dir}/deep.json`, JSON.stringify(crafted));
    for (
      const args of [["merge", `${dir}/deep.json`, "--report-json", `${dir}/o.json`], [
        "report",
        "html",
        `${dir}/deep.json`,
        "-o",
        `${dir}/o.html`,
      ]]
    ) {
      const result = await runCli(args);
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, /^error\[bad-report\]: .*nests deeper than 1000 levels/);
      assert.doesNotMatch(result.stderr, /internal error|^\s+at /m);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
