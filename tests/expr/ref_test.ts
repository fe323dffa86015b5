/** What the inside of one `${…}` refers to, and the hint for one that refers to nothing. */
import assert from "node:assert/strict";
import { parseRef } from "../../lib/expr/ref.ts";
import { ExpressionSyntaxError } from "../../lib/expr/errors.ts";

const at = (text: string) => ({ text, offset: 2 });

Deno.test("each head reads its own shape", () => {
  assert.deepEqual(parseRef("ENV.HOME", at("${ENV.HOME}")), { kind: "env", name: "HOME" });
  assert.deepEqual(parseRef("vars.id", at("${vars.id}")), { kind: "var", name: "id" });
  assert.deepEqual(parseRef("steps.login.token", at("")), {
    kind: "step",
    step: "login",
    key: "token",
  });
  assert.deepEqual(parseRef("steps.login.capture.token", at("")), {
    kind: "step",
    step: "login",
    key: "token",
  });
  assert.deepEqual(parseRef("setup.TOKEN", at("")), { kind: "setup", name: "TOKEN" });
  assert.deepEqual(parseRef("RANDOM.UUID", at("")), { kind: "random-uuid" });
  assert.deepEqual(parseRef("RANDOM.HEX_32", at("")), { kind: "random-hex", length: 32 });
  assert.deepEqual(parseRef("RUN_ID", at("")), { kind: "run-id" });
  assert.deepEqual(parseRef("TRACE_ID", at("")), { kind: "trace-id" });
});

Deno.test("a single segment is a name, heads included", () => {
  for (const name of ["TOKEN", "ENV", "vars", "steps", "RANDOM", "constructor", "__proto__"]) {
    assert.deepEqual(parseRef(name, at("")), { kind: "name", name });
  }
});

function problem(inner: string): { message: string; offset: number; hint?: string } {
  try {
    parseRef(inner, { text: `\${${inner}}`, offset: 7 });
  } catch (error) {
    assert.ok(error instanceof ExpressionSyntaxError);
    return { message: error.message, offset: error.offset, hint: error.hint };
  }
  assert.fail(`${inner} parsed`);
}

Deno.test("a reference to nothing is an error at the expression, with what was probably meant", () => {
  assert.deepEqual(problem("env.HOME"), {
    message: 'Unknown expression "${env.HOME}".',
    offset: 7,
    hint: 'Did you mean "${ENV.HOME}"? Write ${ENV.NAME}.',
  });
  assert.equal(
    problem("steps.a.b.c.d").hint,
    "Write ${steps.<step>.capture.<key>} or ${steps.<step>.<key>}.",
  );
  assert.equal(problem("RANDOM.uuid").hint?.startsWith("Did you mean ${RANDOM.UUID}? "), true);
  assert.equal(problem("RANDOM.HEX_0").message, 'Unknown random value "${RANDOM.HEX_0}".');
  assert.equal(problem("a b").message, 'Malformed expression "${a b}": "a b" is not a valid name.');
  // A head named like a prototype member has no hint of its own.
  assert.ok(problem("constructor.x").hint?.startsWith("Expressions are ${ENV.NAME}"));
});
