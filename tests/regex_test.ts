import assert from "node:assert/strict";
import {
  compilePattern,
  MATCH_TIME_LIMIT_MS,
  MatchTimeoutError,
  testPattern,
} from "../lib/regex.ts";
import { applyOperator } from "../lib/assert.ts";

const HOSTILE = "a".repeat(40) + "!";

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
    const started = performance.now();
    const error = timeout(() => testPattern(pattern, HOSTILE, 300));
    const elapsed = performance.now() - started;
    assert.equal(error.code, "regex-timeout", pattern);
    assert.equal(error.message, "the match did not finish within 300 ms");
    assert.ok(elapsed < 1500, `${pattern} took ${Math.round(elapsed)} ms`);
  }
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

Deno.test("testPattern costs well under a millisecond per ordinary match", () => {
  testPattern("^warm", "warm");
  const started = performance.now();
  for (let i = 0; i < 1000; i++) testPattern("^application/json", "application/json");
  const perMatch = (performance.now() - started) / 1000;
  assert.ok(perMatch < 1, `${perMatch.toFixed(3)} ms per match`);
});

Deno.test("matches fails fast with a plain message on a catastrophic pattern", () => {
  const started = performance.now();
  const message = applyOperator("matches", HOSTILE, "^(a+)+$");
  const elapsed = performance.now() - started;
  assert.ok(elapsed < 2000, `took ${Math.round(elapsed)} ms`);
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
    JSON.stringify(import.meta.resolve("../lib/regex.ts"))
  };
testPattern("^a", "a");
try { testPattern("^(a+)+$", "${HOSTILE}", 100); } catch { console.log("timed out"); }
console.log(testPattern("^a", "a"));`;
  const child = new Deno.Command(Deno.execPath(), {
    args: ["eval", code],
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill(), 20_000);
  const output = await child.output();
  clearTimeout(timer);
  assert.equal(new TextDecoder().decode(output.stderr), "");
  assert.equal(new TextDecoder().decode(output.stdout), "timed out\ntrue\n");
  assert.equal(output.code, 0);
});
