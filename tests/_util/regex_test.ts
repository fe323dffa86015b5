import assert from "node:assert/strict";
import {
  compilePattern,
  MATCH_TIME_LIMIT_MS,
  MatchTimeoutError,
  testPattern,
} from "../../lib/_util/regex.ts";
import { applyOperator } from "../../lib/check/assert.ts";
import { eagerNodeImports } from "../support/imports.ts";
import { assertCostsLike } from "../support/timing.ts";

const HOSTILE = "a".repeat(40) + "!";

/**
 * How many times a fresh RegExp's cost testPattern may cost on an ordinary match: 1.4 measured
 * on a two-core machine at a load of 20; a round trip to the helper thread is about a hundred.
 */
const LIMIT_ORDINARY = 10;

function timeout(run: () => unknown): MatchTimeoutError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof MatchTimeoutError, `not a MatchTimeoutError: ${error}`);
    return error;
  }
  assert.fail("no timeout");
}

Deno.test("testPattern keeps JavaScript semantics for ordinary patterns", () => {
  assert.equal(testPattern("^[a-z]+-\\d+$", "abc-123"), true);
  assert.equal(testPattern("\\d+", "xx42yy"), true, "unanchored");
  assert.equal(testPattern("^\\d+$", "abc"), false);
  assert.equal(testPattern("^(\\w)\\w*\\1$", "abca"), true, "backreferences");
  assert.equal(testPattern("^(?<q>['\"]).*\\k<q>$", "'x'"), true, "named backreferences");
  assert.equal(testPattern("foo(?=bar)", "foobar"), true, "lookahead");
  assert.equal(testPattern("(?<!x)y", "xy"), false, "lookbehind");
  assert.equal(testPattern("^.$", "\n"), false, "a dot does not match a newline");
  assert.equal(testPattern("^\\s$", "\u00a0"), true, "\\s is Unicode whitespace");
  assert.equal(testPattern("^a$", "a\n"), false, "$ is the end of the text");
  assert.equal(testPattern("^\\u{1F600}$", "u".repeat(1_000)), false);
  assert.equal(testPattern("é", "café"), true);
});

Deno.test("testPattern throws SyntaxError for an invalid pattern", () => {
  assert.throws(() => testPattern("(", "x"), SyntaxError);
  assert.throws(() => compilePattern("[z-a]"), SyntaxError);
});

Deno.test("testPattern stops a catastrophic pattern at its time limit", () => {
  for (const pattern of ["^(a+)+$", "^(a|a)+$", "^(a+)+\\1$", "^(?=(a+)+$)", "(a*)*b"]) {
    // The limit's own error is the proof it was stopped: run out, these take 2^40 steps.
    const error = timeout(() => testPattern(pattern, HOSTILE, 300));
    assert.equal(error.code, "regex-timeout", pattern);
    assert.equal(error.message, "the match did not finish within 300 ms");
  }
});

Deno.test("patterns that backtrack without a quantified group are still stopped at the limit", () => {
  // 2^32 ways to choose the optional a's: exponential with no group at all.
  const optional = "a?".repeat(32) + "a".repeat(32);
  // Three open quantifiers over the same letter: n^4 steps on a long input.
  const overlapping = "a*a*a*b";
  for (const [pattern, input] of [[optional, "a".repeat(32)], [overlapping, "a".repeat(1000)]]) {
    assert.equal(timeout(() => testPattern(pattern, input, 300)).code, "regex-timeout", pattern);
  }
  // The same overlapping pattern on a short value has a small worst case, and answers.
  assert.equal(testPattern(overlapping, "a".repeat(40)), false);
  assert.equal(testPattern(overlapping, "a".repeat(40) + "b"), true);
});

Deno.test("testPattern works again right after a timeout", () => {
  timeout(() => testPattern("^(a+)+$", HOSTILE, 200));
  assert.equal(testPattern("^a+!$", HOSTILE), true);
  assert.equal(testPattern("^b", HOSTILE), false);
});

Deno.test("testPattern handles a 10 MiB value within the limit", () => {
  const big = "x".repeat(10 * 1024 * 1024) + "END";
  assert.equal(testPattern("END$", big), true);
  assert.equal(testPattern("^x+END$", big), true);
  assert.equal(testPattern("^y", big), false);
});

Deno.test("testPattern costs about what compiling and running the pattern costs, for an ordinary match", () => {
  // Against V8's own RegExp made afresh each time: a helper thread's round trip per match
  // would cost a hundred times that.
  assertCostsLike(
    "testPattern",
    () => testPattern("^application/json", "application/json"),
    () => new RegExp("^application/json", "u").test("application/json"),
    LIMIT_ORDINARY,
  );
});

Deno.test("matches fails fast with a plain message on a catastrophic pattern", () => {
  const message = applyOperator("matches", HOSTILE, "^(a+)+$");
  assert.equal(
    message,
    `could not tell whether "${HOSTILE}" matches /^(a+)+$/: the match did not finish within ${
      MATCH_TIME_LIMIT_MS / 1000
    } s (a pattern with nested quantifiers such as (a+)+ can take exponential time)`,
  );
  assert.equal(applyOperator("matches", "aaa", "^(a+)+$"), undefined);
});

Deno.test("matches keeps its messages for ordinary and invalid patterns", () => {
  assert.equal(applyOperator("matches", "abc", "^\\d+$"), '"abc" does not match /^\\d+$/');
  assert.equal(
    applyOperator("matches", "x", "("),
    '"matches" needs a valid regular expression, got /(/ ' +
      "(Invalid regular expression: /(/: Unterminated group)",
  );
});

Deno.test("a process that used testPattern exits on its own", async () => {
  const code = `import { testPattern } from ${
    JSON.stringify(import.meta.resolve("../../lib/_util/regex.ts"))
  };
testPattern("^a", "a");
try { testPattern("^(a+)+$", "${HOSTILE}", 100); } catch { console.log("timed out"); }
console.log(testPattern("^a", "a"));`;
  assert.equal(await fresh(code), "timed out\ntrue\n");
});

/** Runs `code` in a fresh process (env `FLOW` set to `flow`); its stdout, or a failure with its stderr. */
async function fresh(code: string, env: Record<string, string> = {}): Promise<string> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", "--ext=ts", code],
    env,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill(), 30_000);
  const output = await child.output();
  clearTimeout(timer);
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, stderr);
  assert.equal(stderr, "");
  return new TextDecoder().decode(output.stdout);
}

const resolve = (path: string) => JSON.stringify(import.meta.resolve(path));

/** Makes Node's synchronous loader unavailable, so only prepareRegex can load the helper. */
const NO_NODE_LOADER = `Object.defineProperty(globalThis, "process", { value: undefined });`;

Deno.test("regex.ts imports no node: builtin up front (it starts Deno's Node layer)", async () => {
  assert.deepEqual(
    await eagerNodeImports(new URL("../../lib/_util/regex.ts", import.meta.url)),
    [],
  );
});

Deno.test("prepareRegex loads the helper's module for exactly the flows that run a regular expression", async () => {
  const url = "http://127.0.0.1:9/";
  const step = (rest: string) =>
    `name: f\nsteps:\n  - name: s\n    request: {url: "${url}"}\n${rest}`;
  const cases: [name: string, flow: string, include: string | undefined, loaded: boolean][] = [
    [
      "no regex",
      step(
        `    capture: {id: $.json.id, h: {header: x-id}}\n    assert:\n      json: [{path: $.json.a, equals: "^a"}]\n`,
      ),
      undefined,
      false,
    ],
    [
      "a json check",
      step(`    assert:\n      json: [{path: $.json.a, matches: "^a"}]\n`),
      undefined,
      true,
    ],
    [
      "a header check",
      step(`    assert:\n      headers: {content-type: {matches: json}}\n`),
      undefined,
      true,
    ],
    ["a regex capture", step(`    capture: {csrf: {regex: 'csrf="([^"]+)"'}}\n`), undefined, true],
    ["a step's if", step(`    if: {value: "x", matches: "^x"}\n`), undefined, true],
    [
      "a group's condition",
      step(
        `    assert:\n      json:\n        - if: {path: $.json.a, matches: "^a"}\n          checks: [{path: $.json.b, exists: true}]\n`,
      ),
      undefined,
      true,
    ],
    [
      "a loop's until",
      step(
        `    loop:\n      max_attempts: 2\n      sleep_ms: 1\n      until:\n        json: [{path: $.json.state, matches: "^ready$"}]\n`,
      ),
      undefined,
      true,
    ],
    [
      "an xpath check",
      step(`    assert:\n      json: [{xpath: "//title", matches: "^Log"}]\n`),
      undefined,
      true,
    ],
    [
      "an included flow",
      step(""),
      step(`    assert:\n      json: [{path: $.json.a, matches: "^a"}]\n`),
      true,
    ],
    ["an included flow without one", step(""), step(""), false],
  ];
  const code = `import { loadFlow } from ${resolve("../../lib/load/load_flow.ts")};
import { prepareRegex, testPattern } from ${resolve("../../lib/_util/regex.ts")};
const load = (text: string) => {
  const { flow, problems } = loadFlow(text, "f.yaml");
  if (!flow) throw new Error(JSON.stringify(problems));
  return flow;
};
let flow = load(Deno.env.get("FLOW")!);
const include = Deno.env.get("INCLUDE");
if (include) {
  flow = { ...flow, steps: [{ ...flow.steps[0], include: { file: "i.yaml", flow: load(include), with: [] } }] };
}
await prepareRegex([flow, flow]);
${NO_NODE_LOADER}
try {
  // A quantified group always goes to the helper thread.
  console.log(testPattern("^(a|b)+$", "a") ? "loaded" : "wrong answer");
} catch (error) {
  console.log(error.code === "regex-failed" ? "not loaded" : String(error));
}`;
  const got = await Promise.all(
    cases.map(([, flow, include]) =>
      fresh(code, { FLOW: flow, ...include ? { INCLUDE: include } : {} })
    ),
  );
  assert.deepEqual(
    got.map((out, i) => `${cases[i][0]}: ${out.trim()}`),
    cases.map(([name, , , loaded]) => `${name}: ${loaded ? "loaded" : "not loaded"}`),
  );
});

Deno.test("a match whose helper cannot be loaded fails with a clear message, not a crash", async () => {
  const out = await fresh(
    `import { execPattern, testPattern, compilePattern } from ${
      resolve("../../lib/_util/regex.ts")
    };
import { applyOperator } from ${resolve("../../lib/check/assert.ts")};
${NO_NODE_LOADER}
try { testPattern("(", "x"); } catch (error) { console.log(error.name); }
try { testPattern("^(a|b)+$", "a"); } catch (error) { console.log(error.name, error.code, error.message); }
console.log(applyOperator("matches", "a", "^(a|b)+"));
console.log(compilePattern("^a$").source);
// A pattern whose worst case is small runs on this thread: no helper is needed.
console.log(testPattern("^a", "a"), execPattern("id=([0-9]+)", "x id=42")?.[1]);`,
  );
  assert.equal(
    out,
    "SyntaxError\n" +
      "MatchTimeoutError regex-failed the regular-expression helper is not loaded: call prepareRegex(flows) before matching\n" +
      'could not tell whether "a" matches /^(a|b)+/: the regular-expression helper is not loaded: call prepareRegex(flows) before matching\n' +
      "^a$\n" +
      "true 42\n",
  );
});

Deno.test("a flow with matches and a regex capture runs through runFlows, the helper imported lazily", async () => {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () =>
      new Response("<p>order ord-42</p>", {
        headers: { "content-type": "text/html" },
      }),
  );
  try {
    const url = `http://127.0.0.1:${server.addr.port}/`;
    const flow = `name: lazy
steps:
  - name: page
    request: {url: "${url}"}
    capture: {order: {regex: 'order (ord-\\d+)'}}
    assert:
      status: 200
      headers: {content-type: {matches: "^text/html"}}
      json: [{path: $.body, matches: "ord-\\\\d+"}]
  - name: again
    request: {url: "${url}?order=\${steps.page.capture.order}"}
    assert:
      json:
        - {path: $.url, matches: "order=ord-42$"}
        - {path: $.body, matches: "^nothing"}
`;
    const out = await fresh(
      `import { loadFlow } from ${resolve("../../lib/load/load_flow.ts")};
import { runFlows } from ${resolve("../../lib/run/flows.ts")};
${NO_NODE_LOADER}
const { flow, problems } = loadFlow(Deno.env.get("FLOW")!, "lazy.yaml");
if (!flow) throw new Error(JSON.stringify(problems));
const result = await runFlows([flow], { runId: "lazy" });
for (const step of result.flows[0].steps) {
  console.log(step.name, step.status, step.assertions.map((a) => a.passed ? "ok" : a.message).join(" | "));
}`,
      { FLOW: flow },
    );
    assert.equal(
      out,
      "page passed ok | ok | ok\n" +
        'again failed ok | $.body: "<p>order ord-42</p>" does not match /^nothing/\n',
    );
  } finally {
    await server.shutdown();
  }
});
