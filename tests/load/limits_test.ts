/**
 * Limits of a flow file are fast, named for what they are, and the same
 * whatever was loaded before: nesting depth (flow and block), alias
 * expansion (billion laughs, self-reference), and large documents without
 * aliases, which must load. "Fast" is a ratio to an ordinary flow of the same
 * size loaded in this process (tests/support/timing.ts), so a busy machine
 * slows both alike: the growth these limits stop is exponential or quadratic.
 */
import assert from "node:assert/strict";
import { UsageError } from "../../lib/model/errors.ts";
import {
  MAX_ATTEMPTS,
  MAX_FILE_BYTES,
  MAX_SLEEP_MS,
  parseTimeoutMs,
} from "../../lib/model/limits.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { convertHar } from "../../lib/convert/har.ts";
import { recording } from "../../bench/convert.ts";
import "../support/engines.ts";
import { assertCostsLike } from "../support/timing.ts";

function timed(text: string) {
  return loadFlow(text, "f.yaml", { env: () => "x" });
}

/**
 * Asserts that loading `text` costs at most `limit` times what loading an ordinary flow of
 * `nodes` nodes costs (as many as `text` has characters halved unless told, at most 100,000):
 * one step whose body is a flat list of small numbers.
 */
function costsLikeOrdinary(label: string, text: string, limit: number, nodes?: number): void {
  const items = nodes ?? Math.min(100_000, Math.max(1, Math.floor(text.length / 2)));
  const ordinary = step(`[${"1,".repeat(items - 1)}1]`);
  assertCostsLike(label, () => timed(text), () => timed(ordinary), limit);
}

/**
 * How many times an ordinary flow of its size a limit's input may cost: about three times the
 * most each took on a two-core machine at a load of 20 to 30 (too deep: 3.1 at 300 levels,
 * under 0.7 from 10,000; alias bombs against a list of 100,000 nodes: the 130 KB doubling chain
 * 10.3, the others under 0.2; aliases 0.8 against their values written out; 20,000 mistakes 2.0
 * against the steps spelt right). Unguarded, a bomb expands exponentially and nesting
 * overflowed the stack.
 */
const LIMIT_DEEP = 10;
const LIMIT_BOMB = 30;
const LIMIT_ALIASES = 3;
const LIMIT_MISTAKES = 6;

const step = (body: string) =>
  `name: x\nsteps:\n  - name: a\n    request:\n      method: POST\n      url: http://x.test\n      body: ${body}\n`;

Deno.test("nesting past 256 levels is one yaml-too-deep problem, in flow and block style", () => {
  for (const depth of [300, 10_000, 100_000]) {
    const text = step(`${"[".repeat(depth)}${"]".repeat(depth)}`);
    const flow = timed(text);
    assert.deepEqual(flow.problems.map((p) => p.code), ["yaml-too-deep"], `flow ${depth}`);
    assert.match(flow.problems[0].message, /more than 256 levels/);
    costsLikeOrdinary(`flow ${depth}`, text, LIMIT_DEEP);
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

Deno.test("every way of nesting 10,000 deep is one yaml-too-deep at the 257th level", () => {
  const cases: Record<string, string> = {
    "compact lists": `\n        ${"- ".repeat(10_000)}1`,
    "explicit keys": `\n        ${"? ".repeat(10_000)}1`,
    "flow maps": `${"{a: ".repeat(10_000)}1${"}".repeat(10_000)}`,
    "lists of flow lists": `\n        ${"- [".repeat(5_000)}`,
    // The parser closes these recursively; a megabyte of them overflowed its stack.
    "keys on one line": `\n        ${"a: ".repeat(300_000)}1`,
    "one-space block maps": `\n${
      Array.from({ length: 2_000 }, (_, i) => `${" ".repeat(8 + i)}a:`).join("\n")
    } 1`,
  };
  for (const [label, body] of Object.entries(cases)) {
    const result = timed(step(body));
    assert.deepEqual(result.problems.map((p) => p.code), ["yaml-too-deep"], label);
    costsLikeOrdinary(label, step(body), LIMIT_DEEP);
  }
  // Brackets inside quoted and block scalars are text, not nesting.
  for (
    const body of [
      `'${"[".repeat(10_000)}'`,
      `"${"{".repeat(10_000)}"`,
      `|\n        ${"[".repeat(10_000)}`,
    ]
  ) {
    assert.deepEqual(timed(step(body)).problems, [], body.slice(0, 12));
  }
  // Exactly 256 levels load; 257 do not.
  const exact = (n: number) =>
    timed(`${"[".repeat(n)}${"]".repeat(n)}`).problems.map((p) => p.code);
  assert.ok(!exact(256).includes("yaml-too-deep"));
  assert.deepEqual(exact(257), ["yaml-too-deep"]);
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
  const bomb = `name: x\n${
    levels.join("\n")
  }\nsteps:\n  - name: a\n    request: {method: POST, url: http://x.test, body: *h}\n`;
  const laughs = timed(bomb);
  assert.deepEqual(laughs.problems.map((p) => p.code), ["yaml-too-large"]);
  assert.match(laughs.problems[0].message, /alias "\*d", aliases add more than 100,000 YAML nodes/);
  // At the alias that passes the limit, not at the first alias of the file.
  assert.equal(laughs.problems[0].line, 6);
  // Expanded, it would be ten million nodes; stopped at 100,000, it costs a flow of that size.
  costsLikeOrdinary("billion laughs", bomb, LIMIT_BOMB, 100_000);
  const self = timed("name: x\nx-a: &a [1, *a]\nsteps: []\n");
  assert.equal(self.problems.length, 1);
  assert.ok(["yaml-too-large", "yaml-syntax"].includes(self.problems[0].code));
});

Deno.test("generated alias bombs of 130 KB and more: one problem each, at the cost of an ordinary flow", () => {
  // Doubling chains: each anchor lists the previous one twice.
  let chain = "name: x\nsteps: []\nx-0: &a0 [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\n";
  for (let i = 1; chain.length < 130_000; i++) chain += `x-${i}: &a${i} [*a${i - 1}, *a${i - 1}]\n`;
  // Merge keys double too.
  let merges = "name: x\nsteps: []\nx-0: &m0 {k: 1}\n";
  for (let i = 1; i < 60; i++) {
    merges += `x-${i}: &m${i}\n  <<: [*m${i - 1}, *m${i - 1}]\n  k${i}: 1\n`;
  }
  // Many uses of one large anchor, each harmless alone.
  const wide = `name: x\nsteps: []\nx-a: &a [${Array(1000).fill(1).join(",")}]\nx-b: [${
    Array(200).fill("*a").join(",")
  }]\n`;
  for (const [label, text] of [["chain", chain], ["merges", merges], ["wide", wide]]) {
    const result = timed(text);
    assert.deepEqual(result.problems.map((p) => p.code), ["yaml-too-large"], label);
    costsLikeOrdinary(label, text, LIMIT_BOMB, 100_000);
  }
});

Deno.test("aliases of nested values that nest past 256 levels once expanded are yaml-too-deep", () => {
  let text = `name: x\nsteps: []\nx-0: &d0 ${"[".repeat(200)}1${"]".repeat(200)}\n`;
  for (let i = 1; i < 40; i++) {
    text += `x-${i}: &d${i} ${"[".repeat(200)}*d${i - 1}${"]".repeat(200)}\n`;
  }
  const result = timed(text);
  assert.deepEqual(result.problems.map((p) => `${p.line} ${p.code}`), ["4 yaml-too-deep"]);
  assert.match(
    result.problems[0].message,
    /With the alias "\*d0" expanded, the YAML nests more than 256/,
  );
});

Deno.test("large flows without alias trouble load: 4,000 alias uses, a 20,000-entry conversion", () => {
  const uses = Array.from(
    { length: 4000 },
    (_, i) => `  - name: s${i}\n    request: {method: POST, url: http://x.test, body: [*a, *a]}\n`,
  ).join("");
  const text = `name: x\nx-a: &a {k: 1}\nsteps:\n${uses}`;
  assert.equal(timed(text).problems.length, 0);
  // Each use costs what the value written out in its place costs.
  const inline = text.replaceAll("*a", "{k: 1}");
  assertCostsLike("4,000 alias uses", () => timed(text), () => timed(inline), LIMIT_ALIASES, 1);
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

Deno.test("a flow over 10 MiB is one file-too-large problem, found before parsing", () => {
  const text = "name: x\nsteps:\n" + "  - name: s\n    request: {url: http://x.test}\n".repeat(
    Math.ceil(MAX_FILE_BYTES / 40),
  );
  const result = timed(text);
  assert.deepEqual(result.problems.map((p) => `${p.line}:${p.column} ${p.code}`), [
    "1:1 file-too-large",
  ]);
  assert.match(result.problems[0].message, /more than the 10 MiB a flow file may be/);
  // Refused before parsing: cheaper than parsing a twentieth of it.
  const twentieth = text.slice(0, text.lastIndexOf("\n  - name:", text.length / 20));
  assertCostsLike("over 10 MiB", () => timed(text), () => timed(twentieth), 1, 1);
});

Deno.test("a mistake repeated 20,000 times: 100 problems and one that counts the rest", () => {
  const text = "name: x\nsteps:\n" +
    Array.from({ length: 20_000 }, (_, i) => `  - name: s${i}\n    reqest: {url: http://x.test}\n`)
      .join("");
  const result = timed(text);
  assert.equal(result.problems.length, 101);
  // The 19,900 problems left out cost no more than the steps spelt right.
  const right = text.replaceAll("reqest:", "request:");
  assertCostsLike("20,000 mistakes", () => timed(text), () => timed(right), LIMIT_MISTAKES, 1);
  const last = result.problems.at(-1)!;
  assert.equal(last.code, "too-many-problems");
  // One misspelt required key is one problem per step.
  assert.equal(last.omitted, 19_900);
  assert.match(
    last.message,
    /^19900 more problems in this file are not listed \(the first 100 are\)/,
  );
});

Deno.test("a problem on a megabyte line keeps a short excerpt window and a short message", () => {
  const key = "k".repeat(1_000_000);
  const result = timed(
    `name: x\nsteps:\n  - name: a\n    request: {url: http://x.test}\n    ${key}: 1\n`,
  );
  assert.equal(result.problems.length, 1);
  assert.ok(JSON.stringify(result.problems).length < 2000);
  const name = "n".repeat(100_000);
  const twice = timed(
    `name: x\nsteps:\n  - name: ${name}\n    request: {url: http://x}\n  - name: ${name}\n    request: {url: http://x}\n`,
  );
  const [p] = twice.problems;
  assert.equal(p.code, "duplicate-step");
  assert.ok(JSON.stringify(p).length < 2000, `${JSON.stringify(p).length} characters`);
  assert.match(p.message, /n…n+" \(100000 characters\)/);
  const long = `name: x\nsteps:\n  - {name: a, request: {url: http://x.test}, ${
    "x: 1, ".repeat(50_000)
  }oops: 1}\n`;
  const far = timed(long).problems;
  assert.ok(far.length > 0 && far.length <= 101);
  for (const problem of far) {
    assert.ok(problem.excerpt!.length <= 240, `${problem.excerpt!.length}`);
    // The excerpt is the part of the line around the column.
    const start = problem.excerptStart ?? 1;
    const lineText = long.split("\n")[problem.line - 1];
    assert.equal(problem.excerpt, lineText.slice(start - 1, start - 1 + problem.excerpt!.length));
    assert.ok(problem.column >= start && problem.column < start + 240);
  }
});

Deno.test("numbers JSON cannot carry as written are out-of-range, at their position", () => {
  for (const written of [".inf", "-.inf", ".nan", "1e400", "-1e999"]) {
    const result = timed(step(`{a: [1, ${written}]}`));
    assert.deepEqual(result.problems.map((p) => `${p.line}:${p.column} ${p.code}`), [
      "7:21 out-of-range",
    ], written);
    assert.match(
      result.problems[0].hint!,
      new RegExp(`Quote it to send it as text: "${written.replace(".", "\\.")}"`),
    );
  }
  for (const written of ["0x20000000000001", "-9007199254740993", "0o400000000000000001"]) {
    assert.deepEqual(timed(step(`{a: ${written}}`)).problems.map((p) => p.code), ["out-of-range"]);
  }
  assert.deepEqual(timed(step("{a: 1.5e300, b: -0, c: 9007199254740991}")).problems, []);
});

Deno.test("header values a request cannot carry are bad-header problems", () => {
  const problems = (value: string) =>
    loadFlow(
      `name: x\nsteps:\n  - name: a\n    request: {url: "http://x.test", headers: {x-a: ${value}}}\n`,
      "f.yaml",
    ).problems.map((p) => `${p.excerpt![p.column - 1]} ${p.code}: ${p.message}`);
  // The caret is on the character itself.
  assert.deepEqual(problems(`"price: 5 €"`), [
    '€ bad-header: The value of header "x-a" holds "€" (U+20AC), which an HTTP header value cannot carry.',
  ]);
  assert.equal(problems(`"a\\u2028b"`).length, 1);
  assert.equal(problems(`"a\\0b"`).length, 1);
  assert.equal(problems(`"a\\rb"`).length, 1);
  assert.deepEqual(problems(`"café, tab\\tok"`), []);
});

Deno.test("polling bounds: whole numbers within the documented maxima, nothing else", () => {
  const loop = (fields: string) =>
    loadFlow(
      `name: x\nsteps:\n  - name: a\n    request: {url: "http://x.test"}\n    loop: {${fields}, until: {status: 200}}\n`,
      "f.yaml",
    ).problems.map((p) => p.code);
  for (const bad of ["0", "-1", "1.5", '"10"', "10001", "1e300", "2147483648", ".inf", "true"]) {
    assert.equal(loop(`max_attempts: ${bad}`).length, 1, `max_attempts: ${bad}`);
  }
  for (const bad of ["-1", "0.5", "3600001", "2147483648", "1e300", ".nan", "null"]) {
    assert.equal(loop(`max_attempts: 3, sleep_ms: ${bad}`).length, 1, `sleep_ms: ${bad}`);
  }
  assert.deepEqual(loop(`max_attempts: 10000, sleep_ms: 3600000`), []);
  assert.deepEqual(loop(`max_attempts: 1, sleep_ms: 0`), []);
  assert.equal(MAX_ATTEMPTS, 10_000);
  assert.equal(MAX_SLEEP_MS, 3_600_000);
});

Deno.test("parseTimeoutMs takes 1 to 2^31-1 ms in digits and refuses the rest with bad-timeout", () => {
  assert.equal(parseTimeoutMs("1"), 1);
  assert.equal(parseTimeoutMs(" 2147483647 "), 2_147_483_647);
  for (
    const value of ["0", "2147483648", "1e300", "9007199254740993", "1.5", "0x10", "-5", "", "ten"]
  ) {
    assert.throws(
      () => parseTimeoutMs(value),
      (error: unknown) => error instanceof UsageError && error.code === "bad-timeout",
      value,
    );
  }
});
