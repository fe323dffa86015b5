/** Parsing a flow's strings into templates, once, with the column of each mistake. */
import assert from "node:assert/strict";
import { compileValue, expressionsOf, isConstant, parseTemplate } from "../../lib/expr/parse.ts";
import { ExpressionSyntaxError } from "../../lib/expr/errors.ts";

Deno.test("literal text, escapes, raw and fallbacks", () => {
  const t = parseTemplate("a $b $${c} ${raw:vars.q}${ENV.X:-x:-y}");
  assert.deepEqual(t.parts[0], "a $b ${c} ");
  assert.deepEqual(t.parts[1], {
    ref: { kind: "var", name: "q" },
    text: "${raw:vars.q}",
    offset: 11,
    raw: true,
  });
  assert.deepEqual(t.parts[2], {
    ref: { kind: "env", name: "X" },
    text: "${ENV.X:-x:-y}",
    offset: 24,
    fallback: "x:-y",
  });
  assert.equal(parseTemplate("").parts[0], "");
  assert.ok(isConstant(parseTemplate("plain $")));
});

Deno.test("a template is parsed once and shared frozen", () => {
  const a = parseTemplate("Bearer ${steps.login.token}");
  assert.equal(parseTemplate("Bearer ${steps.login.token}"), a);
  assert.ok(Object.isFrozen(a) && Object.isFrozen(a.parts) && Object.isFrozen(a.parts[1]));
});

function offsetOf(source: string): [number, string] {
  try {
    parseTemplate(source);
  } catch (error) {
    assert.ok(error instanceof ExpressionSyntaxError);
    return [error.offset, error.message];
  }
  assert.fail(`${source} parsed`);
}

Deno.test("each mistake is reported at its offset", () => {
  assert.deepEqual(offsetOf("x ${vars.a"), [
    2,
    'Unclosed expression "${vars.a": "${" has no matching "}".',
  ]);
  assert.deepEqual(offsetOf("x ${ }"), [2, 'Empty expression "${ }".']);
  assert.deepEqual(offsetOf("${vars.a:-b}"), [
    0,
    'A fallback ":-" cannot follow "vars.a" in "${vars.a:-b}".',
  ]);
  // The nested expression's offset: where the fallback starts.
  assert.equal(offsetOf("${ENV.A:-${B}}")[0], 9);
  assert.equal(offsetOf("${raw: ENV.A:-${B}}")[0], 14);
});

Deno.test("compileValue keeps constant subtrees constant and finds every expression", () => {
  assert.deepEqual(compileValue({ a: [1, "x"] }), { kind: "const", value: { a: [1, "x"] } });
  const value = compileValue({ a: "${RUN_ID}", b: ["${vars.x}", 2] });
  assert.equal(value.kind, "map");
  assert.deepEqual([...expressionsOf(value)].map((e) => e.expr.text), ["${RUN_ID}", "${vars.x}"]);
});
