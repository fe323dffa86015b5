/**
 * Limits of a flow file are fast, named for what they are, and the same
 * whatever was loaded before: nesting depth (flow and block), alias
 * expansion (billion laughs, self-reference), and large documents without
 * aliases, which must load.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../lib/load.ts";
import { convertHar } from "../lib/convert/har.ts";
import { recording } from "../bench/convert.ts";

function timed(text: string) {
  const started = performance.now();
  const result = loadFlow(text, "f.yaml", { env: () => "x" });
  return { ...result, ms: performance.now() - started };
}

const step = (body: string) =>
  `name: x\nsteps:\n  - name: a\n    request:\n      method: POST\n      url: http://x.test\n      body: ${body}\n`;

Deno.test("nesting past 256 levels is one yaml-too-deep problem, in flow and block style", () => {
  for (const depth of [300, 10_000, 100_000]) {
    const flow = timed(step(`${"[".repeat(depth)}${"]".repeat(depth)}`));
    assert.deepEqual(flow.problems.map((p) => p.code), ["yaml-too-deep"], `flow ${depth}`);
    assert.match(flow.problems[0].message, /more than 256 levels/);
    assert.ok(flow.ms < 2000, `${flow.ms} ms`);
  }
  const block = Array.from({ length: 3000 }, (_, i) => `${" ".repeat(8 + i * 2)}- `).join("\n");
  const deep = timed(step(`\n${block}1`));
  assert.deepEqual(deep.problems.map((p) => p.code), ["yaml-too-deep"]);
  // The same answer after something else filled the stack: the check does not recurse.
  const again = (function nest(n: number): ReturnType<typeof timed> {
    return n === 0 ? timed(step(`\n${block}1`)) : nest(n - 1);
  })(2000);
  assert.deepEqual(
    again.problems.map((p) => `${p.code} ${p.line}`),
    deep.problems.map((p) => `${p.code} ${p.line}`),
  );
  assert.equal(timed(step(`${"[".repeat(200)}${"]".repeat(200)}`)).problems.length, 0);
});

Deno.test("aliases that expand past 100,000 nodes are one yaml-too-large problem, found fast", () => {
  const levels = ["x-a: &a [1,1,1,1,1,1,1,1,1,1]"];
  for (
    const [name, prev] of [["b", "a"], ["c", "b"], ["d", "c"], ["e", "d"], ["f", "e"], ["g", "f"], [
      "h",
      "g",
    ]]
  ) {
    levels.push(`x-${name}: &${name} [${Array(10).fill(`*${prev}`).join(",")}]`);
  }
  const laughs = timed(
    `name: x\n${
      levels.join("\n")
    }\nsteps:\n  - name: a\n    request: {method: POST, url: http://x.test, body: *h}\n`,
  );
  assert.deepEqual(laughs.problems.map((p) => p.code), ["yaml-too-large"]);
  assert.match(laughs.problems[0].message, /aliases expand to \d+ more YAML nodes/);
  assert.ok(laughs.ms < 1000, `${laughs.ms} ms`);
  const self = timed("name: x\nx-a: &a [1, *a]\nsteps: []\n");
  assert.ok(self.problems.some((p) => p.code === "yaml-too-large" || p.code === "yaml-syntax"));
});

Deno.test("large flows without alias trouble load: 4,000 alias uses, a 20,000-entry conversion", () => {
  const uses = Array.from(
    { length: 4000 },
    (_, i) => `  - name: s${i}\n    request: {method: POST, url: http://x.test, body: [*a, *a]}\n`,
  ).join("");
  const anchored = timed(`name: x\nx-a: &a {k: 1}\nsteps:\n${uses}`);
  assert.equal(anchored.problems.length, 0);
  assert.ok(anchored.ms < 5000, `${anchored.ms} ms for ${uses.length} characters`);
  const converted = timed(convertHar(recording(20_000)).yaml);
  assert.deepEqual(converted.problems, []);
  assert.equal(converted.flow!.steps.length, 12_000);
});

Deno.test("requests that can never be sent are load problems, not failures at run time", () => {
  const problems = (request: string) =>
    loadFlow(`name: x\nsteps:\n  - name: a\n    request: ${request}\n`, "f.yaml", {
      env: () => undefined,
    }).problems.map((p) => `${p.code}: ${p.message}`);
  assert.deepEqual(problems(`{method: GET, url: "http://x.test", body: {a: 1}}`), [
    "bad-method: A GET request cannot have a body: the HTTP client refuses to send one.",
  ]);
  assert.equal(problems(`{method: HEAD, url: "http://x.test", body: "x"}`).length, 1);
  for (const method of ["CONNECT", "trace", "Track"]) {
    assert.match(
      problems(`{method: ${method}, url: "http://x.test"}`)[0],
      /cannot be sent by flowrun/,
    );
  }
  assert.match(
    problems(`{url: "http://x.test", headers: {x-a: "a\\r\\nb: c"}}`)[0],
    /^bad-header: The value of header "x-a" holds a line break/,
  );
  assert.match(
    problems(`{url: "http://x.test/\${ENV.A:-\${ENV.B}}"}`)[0],
    /^bad-expression: A fallback cannot hold another expression/,
  );
  assert.deepEqual(problems(`{method: DELETE, url: "http://x.test", body: {a: 1}}`), []);
});

Deno.test("integers past 2^53 are refused with the quoted fix; exact ones stay numbers", () => {
  const load = (v: string) =>
    loadFlow(
      `name: x\nvars: {n: ${v}}\nsteps:\n  - name: a\n    request: {method: POST, url: "http://x.test", body: {id: ${v}}}\n`,
      "f.yaml",
    );
  const big = load("12345678901234567890");
  assert.deepEqual(big.problems.map((p) => `${p.line}:${p.column} ${p.code}`), [
    "2:11 out-of-range",
    "5:62 out-of-range",
  ]);
  assert.match(big.problems[0].hint!, /Quote it to send it as text: "12345678901234567890"/);
  assert.deepEqual(load("9007199254740991").flow!.vars[0].value, {
    kind: "const",
    value: 9007199254740991,
  });
  assert.equal(load('"12345678901234567890"').problems.length, 0, "quoted, it is text");
});
