import assert from "node:assert/strict";
import {
  compileValue,
  evaluate,
  type Expr,
  ExpressionError,
  expressionsOf,
  ExpressionSyntaxError,
  isConstant,
  parseTemplate,
  randomHex,
  render,
  type Scope,
  toText,
  type ValueTemplate,
} from "../../lib/expr/template.ts";

interface ScopeInit {
  env?: Record<string, string>;
  vars?: Record<string, unknown>;
  steps?: Record<string, Record<string, unknown>>;
  runId?: string;
}

function scopeOf(init: ScopeInit = {}): Scope {
  const env = init.env ?? {};
  return {
    // Object.hasOwn keeps inherited names like "constructor" from looking set.
    env: (name) => (Object.hasOwn(env, name) ? env[name] : undefined),
    vars: new Map(Object.entries(init.vars ?? {})),
    steps: new Map(
      Object.entries(init.steps ?? {}).map(([s, c]) => [s, new Map(Object.entries(c))]),
    ),
    runId: init.runId ?? "run-1",
  };
}

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The single expression of a template that is exactly one expression. */
function onlyExpr(source: string): Expr {
  const parts = parseTemplate(source).parts;
  assert.equal(parts.length, 1, `expected one part in ${JSON.stringify(parts)}`);
  assert.equal(typeof parts[0], "object");
  return parts[0] as Expr;
}

function syntaxError(source: string): ExpressionSyntaxError {
  try {
    parseTemplate(source);
  } catch (error) {
    assert.ok(error instanceof ExpressionSyntaxError, `not an ExpressionSyntaxError: ${error}`);
    return error;
  }
  assert.fail(`parseTemplate(${JSON.stringify(source)}) did not throw`);
}

// ---------------------------------------------------------------------------
// parseTemplate: literal text

Deno.test("a template many flows repeat is parsed once and shared, frozen", () => {
  const a = parseTemplate("Bearer ${steps.login.capture.token}");
  assert.equal(parseTemplate("Bearer ${steps.login.capture.token}"), a);
  assert.ok(Object.isFrozen(a) && Object.isFrozen(a.parts));
  const expr = a.parts[1] as Expr;
  assert.ok(Object.isFrozen(expr) && Object.isFrozen(expr.ref));
  assert.throws(() => (a.parts as unknown[]).push("x"), TypeError);
  // A syntax error is thrown at every use, with its offset, never remembered.
  for (let i = 0; i < 2; i++) {
    assert.throws(
      () => parseTemplate("a ${vars.x"),
      (e) => e instanceof ExpressionSyntaxError && e.offset === 2,
    );
  }
});

Deno.test("parseTemplate keeps plain text as a single literal part", () => {
  const t = parseTemplate("hello world");
  assert.deepEqual(t, { source: "hello world", parts: ["hello world"] });
});

Deno.test("parseTemplate turns the empty string into one empty literal", () => {
  // evaluate relies on there always being at least one part.
  assert.deepEqual(parseTemplate("").parts, [""]);
});

Deno.test("parseTemplate writes $${ as a literal ${ and does not parse what follows", () => {
  assert.deepEqual(parseTemplate("cost: $${price}").parts, ["cost: ${price}"]);
  assert.deepEqual(parseTemplate("$${").parts, ["${"]);
});

Deno.test("parseTemplate merges an escaped ${ with the text around an expression", () => {
  const parts = parseTemplate("a $${b} ${RUN_ID} c").parts;
  assert.equal(parts.length, 3);
  assert.equal(parts[0], "a ${b} ");
  assert.deepEqual(parts[1], { ref: { kind: "run-id" }, text: "${RUN_ID}", offset: 8 });
  assert.equal(parts[2], " c");
});

Deno.test("parseTemplate keeps a lone $ that does not start an expression", () => {
  assert.deepEqual(parseTemplate("$").parts, ["$"]);
  assert.deepEqual(parseTemplate("price: 5$ or $5").parts, ["price: 5$ or $5"]);
  assert.deepEqual(parseTemplate("$$").parts, ["$$"]);
  assert.deepEqual(parseTemplate("ends with $").parts, ["ends with $"]);
});

Deno.test("parseTemplate records expression offsets and the text as written", () => {
  const parts = parseTemplate("Bearer ${steps.login.capture.token}!").parts;
  assert.deepEqual(parts, [
    "Bearer ",
    {
      ref: { kind: "step", step: "login", key: "token" },
      text: "${steps.login.capture.token}",
      offset: 7,
    },
    "!",
  ]);
});

Deno.test("parseTemplate splits adjacent expressions without empty literals between them", () => {
  const parts = parseTemplate("${vars.a}${vars.b}").parts;
  assert.equal(parts.length, 2);
  assert.deepEqual((parts[0] as Expr).ref, { kind: "var", name: "a" });
  assert.equal((parts[0] as Expr).offset, 0);
  assert.deepEqual((parts[1] as Expr).ref, { kind: "var", name: "b" });
  assert.equal((parts[1] as Expr).offset, 9);
});

// ---------------------------------------------------------------------------
// parseTemplate: every kind of reference

Deno.test("parseTemplate reads ${ENV.X} as an environment reference", () => {
  assert.deepEqual(onlyExpr("${ENV.API_HOST}").ref, { kind: "env", name: "API_HOST" });
});

Deno.test("parseTemplate reads a bare ${NAME} as a name reference", () => {
  assert.deepEqual(onlyExpr("${BASE_URL}").ref, { kind: "name", name: "BASE_URL" });
  assert.deepEqual(onlyExpr("${user-id}").ref, { kind: "name", name: "user-id" });
});

Deno.test("parseTemplate reads ${vars.x} as a flow var reference", () => {
  assert.deepEqual(onlyExpr("${vars.user_id}").ref, { kind: "var", name: "user_id" });
});

Deno.test("parseTemplate reads both step capture spellings as the same reference", () => {
  const a = onlyExpr("${steps.login.capture.token}").ref;
  const b = onlyExpr("${steps.login.token}").ref;
  assert.deepEqual(a, { kind: "step", step: "login", key: "token" });
  assert.deepEqual(b, { kind: "step", step: "login", key: "token" });
});

Deno.test("parseTemplate reads ${steps.s.capture} as the capture named capture", () => {
  // Three segments are spelling B, so "capture" is a key here, not the keyword.
  assert.deepEqual(onlyExpr("${steps.s.capture}").ref, {
    kind: "step",
    step: "s",
    key: "capture",
  });
});

Deno.test("parseTemplate reads RANDOM.UUID and RUN_ID", () => {
  assert.deepEqual(onlyExpr("${RANDOM.UUID}").ref, { kind: "random-uuid" });
  assert.deepEqual(onlyExpr("${RUN_ID}").ref, { kind: "run-id" });
});

Deno.test("parseTemplate accepts RANDOM.HEX_n for n from 1 to 4096", () => {
  assert.deepEqual(onlyExpr("${RANDOM.HEX_1}").ref, { kind: "random-hex", length: 1 });
  assert.deepEqual(onlyExpr("${RANDOM.HEX_32}").ref, { kind: "random-hex", length: 32 });
  assert.deepEqual(onlyExpr("${RANDOM.HEX_4096}").ref, { kind: "random-hex", length: 4096 });
});

Deno.test("parseTemplate rejects RANDOM.HEX_0 and RANDOM.HEX_4097 with the allowed range", () => {
  for (const n of [0, 4097]) {
    const source = `x-\${RANDOM.HEX_${n}}`;
    const e = syntaxError(source);
    assert.equal(e.message, `Unknown random value "\${RANDOM.HEX_${n}}".`);
    assert.equal(e.offset, 2);
    assert.equal(
      e.hint,
      "Use ${RANDOM.UUID}, ${RANDOM.HEX_<n>} with n from 1 to 4096 (e.g. ${RANDOM.HEX_32}), " +
        "${RANDOM.ALPHA_<n>} (letters a to z) or ${RANDOM.UPPER_<n>} (A to Z) with n from 1 to 4096, " +
        "${RANDOM.DIGITS_<n>} with n from 1 to 15, ${RANDOM.BOOL} or ${RANDOM.PASSWORD}.",
    );
    assert.equal(e.code, "bad-expression");
    assert.equal(e.name, "ExpressionSyntaxError");
  }
});

Deno.test("parseTemplate rejects an unknown RANDOM member", () => {
  const e = syntaxError("${RANDOM.uuid}");
  assert.equal(e.message, 'Unknown random value "${RANDOM.uuid}".');
  assert.equal(e.offset, 0);
});

Deno.test("parseTemplate ignores spaces around the reference", () => {
  const expr = onlyExpr("${ vars.x }");
  assert.deepEqual(expr.ref, { kind: "var", name: "x" });
  assert.equal(expr.text, "${ vars.x }");
});

// ---------------------------------------------------------------------------
// parseTemplate: fallbacks

Deno.test("parseTemplate keeps everything after :- as the fallback, colons and slashes included", () => {
  const expr = onlyExpr("${ENV.X:-a:b/c}");
  assert.deepEqual(expr.ref, { kind: "env", name: "X" });
  assert.equal(expr.fallback, "a:b/c");
  assert.equal(expr.text, "${ENV.X:-a:b/c}");
});

Deno.test("parseTemplate accepts an empty fallback as the empty string", () => {
  const expr = onlyExpr("${ENV.X:-}");
  assert.equal(expr.fallback, "");
  assert.ok("fallback" in expr, "an empty fallback must still be recorded");
});

Deno.test("parseTemplate accepts a fallback on a bare name", () => {
  const expr = onlyExpr("${PORT:-8080}");
  assert.deepEqual(expr.ref, { kind: "name", name: "PORT" });
  assert.equal(expr.fallback, "8080");
});

Deno.test("parseTemplate leaves fallback undefined when there is none", () => {
  assert.equal("fallback" in onlyExpr("${ENV.X}"), false);
});

Deno.test("parseTemplate rejects a fallback on a flow var", () => {
  const e = syntaxError("id=${vars.x:-d}");
  assert.equal(e.message, 'A fallback ":-" cannot follow "vars.x" in "${vars.x:-d}".');
  assert.equal(e.offset, 3);
  assert.equal(
    e.hint,
    "Fallbacks apply to variables that may be unset: ${ENV.NAME:-value} or ${NAME:-value}.",
  );
});

Deno.test("parseTemplate rejects a fallback on a step capture and on RUN_ID", () => {
  assert.match(syntaxError("${steps.a.b:-x}").message, /^A fallback ":-" cannot follow/);
  assert.match(syntaxError("${RUN_ID:-x}").message, /^A fallback ":-" cannot follow/);
});

// ---------------------------------------------------------------------------
// parseTemplate: malformed expressions

Deno.test("parseTemplate reports an unclosed expression at its ${", () => {
  const e = syntaxError("ab ${vars.x");
  assert.equal(e.message, 'Unclosed expression "${vars.x": "${" has no matching "}".');
  assert.equal(e.offset, 3);
  assert.equal(e.hint, 'Close it with "}", or write "$${" for a literal "${".');
});

Deno.test("parseTemplate quotes at most 40 characters of an unclosed expression", () => {
  const e = syntaxError("${" + "a".repeat(100));
  assert.equal(e.message, `Unclosed expression "\${${"a".repeat(38)}": "\${" has no matching "}".`);
});

Deno.test("parseTemplate reports an unclosed expression after a valid one", () => {
  const e = syntaxError("${RUN_ID} and ${ENV.X");
  assert.equal(e.offset, 14);
});

Deno.test("parseTemplate reports an empty expression", () => {
  const e = syntaxError("x${}");
  assert.equal(e.message, 'Empty expression "${}".');
  assert.equal(e.offset, 1);
  assert.equal(e.hint, 'Write a reference such as ${vars.name}, or "$${" for a literal "${".');
});

Deno.test("parseTemplate reports blank text before a fallback as an empty expression", () => {
  const e = syntaxError("${ :-a}");
  assert.equal(e.message, 'Empty expression "${ :-a}".');
  assert.equal(e.offset, 0);
});

Deno.test("parseTemplate rejects a segment that is not a name", () => {
  const e = syntaxError("/users/${vars.1x}");
  assert.equal(e.message, 'Malformed expression "${vars.1x}": "1x" is not a valid name.');
  assert.equal(e.offset, 7);
  assert.equal(
    e.hint,
    'Names are letters, digits, "_" and "-", joined by dots, e.g. ${vars.user_id}.',
  );
});

Deno.test("parseTemplate rejects an empty segment between dots", () => {
  const e = syntaxError("${a..b}");
  assert.equal(e.message, 'Malformed expression "${a..b}": "" is not a valid name.');
  assert.equal(e.offset, 0);
});

Deno.test("parseTemplate rejects an unknown head with the list of expressions as hint", () => {
  const e = syntaxError("v: ${foo.bar.baz.qux}");
  assert.equal(e.message, 'Unknown expression "${foo.bar.baz.qux}".');
  assert.equal(e.offset, 3);
  assert.equal(
    e.hint,
    "Expressions are ${ENV.NAME}, ${NAME}, ${vars.name}, ${steps.<step>.capture.<key>}, " +
      "${steps.<step>.<key>}, ${RANDOM.UUID}, ${RANDOM.HEX_<n>}, ${NOW.UNIX}, ${NOW.UNIX_MS}, " +
      "${NOW.ISO}, ${NOW.DATE}, ${RUN_ID} and ${TRACE_ID}.",
  );
});

Deno.test("parseTemplate gives a head-specific hint for a known head with the wrong arity", () => {
  assert.equal(syntaxError("${ENV.A.B}").hint, "Write ${ENV.NAME}.");
  // A field of a map var is a var reference with a path.
  assert.deepEqual(onlyExpr("${vars.a.b-c}").ref, { kind: "var", name: "a", path: ["b-c"] });
  assert.equal(
    syntaxError("${steps.a.b.c}").hint,
    "Write ${steps.<step>.capture.<key>} or ${steps.<step>.<key>}.",
  );
  assert.equal(syntaxError("${steps.a}").message, 'Unknown expression "${steps.a}".');
  assert.equal(
    syntaxError("${RANDOM.HEX_1.x}").hint,
    "Write ${RANDOM.UUID}, ${RANDOM.HEX_32}, ${RANDOM.ALPHA_8}, ${RANDOM.UPPER_8}, ${RANDOM.DIGITS_6}, ${RANDOM.BOOL} or ${RANDOM.PASSWORD}.",
  );
});

Deno.test("parseTemplate reads a lone reserved head as a bare name", () => {
  // One segment is always ${NAME}, so these resolve through vars and env at run time.
  assert.deepEqual(onlyExpr("${vars}").ref, { kind: "name", name: "vars" });
  assert.deepEqual(onlyExpr("${ENV}").ref, { kind: "name", name: "ENV" });
  assert.deepEqual(onlyExpr("${RANDOM}").ref, { kind: "name", name: "RANDOM" });
});

Deno.test("parseTemplate rejects RUN_ID with members", () => {
  assert.equal(syntaxError("${RUN_ID.x}").message, 'Unknown expression "${RUN_ID.x}".');
});

// ---------------------------------------------------------------------------
// evaluate

Deno.test("evaluate keeps the type of a whole-expression value", () => {
  const scope = scopeOf({
    vars: { n: 3, obj: { a: [1, 2] }, flag: false, nothing: null },
    steps: { login: { id: 42 } },
  });
  assert.equal(evaluate(parseTemplate("${vars.n}"), scope), 3);
  assert.deepEqual(evaluate(parseTemplate("${vars.obj}"), scope), { a: [1, 2] });
  assert.equal(evaluate(parseTemplate("${vars.flag}"), scope), false);
  assert.equal(evaluate(parseTemplate("${vars.nothing}"), scope), null);
  assert.equal(evaluate(parseTemplate("${steps.login.capture.id}"), scope), 42);
});

Deno.test("evaluate returns a template without expressions as its text", () => {
  assert.equal(evaluate(parseTemplate("plain"), scopeOf()), "plain");
  assert.equal(evaluate(parseTemplate(""), scopeOf()), "");
  assert.equal(evaluate(parseTemplate("$${x}"), scopeOf()), "${x}");
});

Deno.test("evaluate interpolates into text, writing non-strings as JSON", () => {
  const scope = scopeOf({
    env: { HOST: "api.test" },
    vars: { n: 3, obj: { a: 1 }, list: [1, "x"], t: true, z: null, s: "str" },
  });
  assert.equal(
    evaluate(parseTemplate("https://${ENV.HOST}/${vars.n}"), scope),
    "https://api.test/3",
  );
  assert.equal(
    evaluate(
      parseTemplate("o=${vars.obj} l=${vars.list} t=${vars.t} z=${vars.z} s=${vars.s}"),
      scope,
    ),
    'o={"a":1} l=[1,"x"] t=true z=null s=str',
  );
});

Deno.test("evaluate interpolates a whole expression with surrounding text as a string", () => {
  const scope = scopeOf({ vars: { n: 3 } });
  assert.equal(evaluate(parseTemplate(" ${vars.n}"), scope), " 3");
  assert.equal(evaluate(parseTemplate("${vars.n}${vars.n}"), scope), "33");
});

Deno.test("evaluate uses the fallback when the environment variable is unset or empty", () => {
  const t = parseTemplate("${ENV.PORT:-8080}");
  assert.equal(evaluate(t, scopeOf()), "8080");
  assert.equal(evaluate(t, scopeOf({ env: { PORT: "9000" } })), "9000");
  // As in the shell, ":-" also replaces an empty value.
  assert.equal(evaluate(t, scopeOf({ env: { PORT: "" } })), "8080");
  assert.equal(evaluate(parseTemplate("${ENV.PORT}"), scopeOf({ env: { PORT: "" } })), "");
  assert.equal(evaluate(parseTemplate("${ENV.X:-}"), scopeOf()), "");
  assert.equal(evaluate(parseTemplate("${ENV.X:-a:b/c}"), scopeOf()), "a:b/c");
});

Deno.test("evaluate reports an unset environment variable without fallback", () => {
  assert.throws(
    () => evaluate(parseTemplate("http://${ENV.API_HOST}/x"), scopeOf()),
    (e: unknown) => {
      assert.ok(e instanceof ExpressionError);
      assert.equal(e.message, 'Environment variable API_HOST is not set (in "${ENV.API_HOST}").');
      assert.equal(e.code, "unresolved-expression");
      assert.equal(e.name, "ExpressionError");
      return true;
    },
  );
});

Deno.test("evaluate reports an unknown flow var", () => {
  assert.throws(
    () => evaluate(parseTemplate("${vars.missing}"), scopeOf({ vars: { other: 1 } })),
    (e: unknown) => {
      assert.ok(e instanceof ExpressionError);
      assert.equal(e.message, 'Flow var "missing" is not defined (in "${vars.missing}").');
      return true;
    },
  );
});

Deno.test("evaluate returns a flow var whose value is undefined-like without throwing", () => {
  // has() decides, not the value: a var set to null is defined.
  assert.equal(evaluate(parseTemplate("${vars.z}"), scopeOf({ vars: { z: null } })), null);
});

Deno.test("evaluate reports a missing capture of a known and of an unknown step", () => {
  const scope = scopeOf({ steps: { login: { token: "t" } } });
  assert.throws(
    () => evaluate(parseTemplate("${steps.login.capture.id}"), scope),
    (e: unknown) => {
      assert.ok(e instanceof ExpressionError);
      assert.equal(
        e.message,
        'Step "login" has no captured value "id" (in "${steps.login.capture.id}").',
      );
      return true;
    },
  );
  assert.throws(
    () => evaluate(parseTemplate("${steps.other.token}"), scope),
    (e: unknown) => {
      assert.ok(e instanceof ExpressionError);
      assert.equal(
        e.message,
        'Step "other" has no captured value "token" (in "${steps.other.token}").',
      );
      return true;
    },
  );
});

Deno.test("evaluate resolves ${NAME} from vars first, then env, then the fallback", () => {
  const t = parseTemplate("${HOST:-fallback.test}");
  assert.equal(
    evaluate(t, scopeOf({ vars: { HOST: "var.test" }, env: { HOST: "env.test" } })),
    "var.test",
  );
  assert.equal(evaluate(t, scopeOf({ env: { HOST: "env.test" } })), "env.test");
  assert.equal(evaluate(t, scopeOf()), "fallback.test");
});

Deno.test("evaluate keeps the type of a var found by ${NAME}", () => {
  assert.deepEqual(evaluate(parseTemplate("${ids}"), scopeOf({ vars: { ids: [1, 2] } })), [1, 2]);
});

Deno.test("evaluate reports a ${NAME} found nowhere", () => {
  assert.throws(
    () => evaluate(parseTemplate("${TOKEN}"), scopeOf()),
    (e: unknown) => {
      assert.ok(e instanceof ExpressionError);
      assert.equal(
        e.message,
        '"TOKEN" is not a flow var, run parameter or environment variable (in "${TOKEN}").',
      );
      return true;
    },
  );
});

Deno.test("evaluate returns the run id", () => {
  assert.equal(evaluate(parseTemplate("${RUN_ID}"), scopeOf({ runId: "r-77" })), "r-77");
  assert.equal(evaluate(parseTemplate("run-${RUN_ID}"), scopeOf({ runId: "r-77" })), "run-r-77");
});

Deno.test("evaluate makes a well-formed UUID v4, fresh at each use", () => {
  const t = parseTemplate("${RANDOM.UUID}");
  const a = evaluate(t, scopeOf());
  const b = evaluate(t, scopeOf());
  assert.equal(typeof a, "string");
  assert.match(a as string, UUID_V4);
  assert.match(b as string, UUID_V4);
  assert.notEqual(a, b);
});

Deno.test("evaluate makes fresh random values for each occurrence in one template", () => {
  const text = evaluate(parseTemplate("${RANDOM.UUID}|${RANDOM.UUID}"), scopeOf()) as string;
  const [a, b] = text.split("|");
  assert.match(a, UUID_V4);
  assert.match(b, UUID_V4);
  assert.notEqual(a, b);
});

Deno.test("evaluate makes HEX_n values of exactly n lowercase hex digits", () => {
  for (const n of [1, 2, 7, 32, 33, 4096]) {
    const value = evaluate(parseTemplate(`\${RANDOM.HEX_${n}}`), scopeOf());
    assert.equal(typeof value, "string");
    assert.equal((value as string).length, n, `HEX_${n} length`);
    assert.match(value as string, /^[0-9a-f]+$/);
  }
  const t = parseTemplate("${RANDOM.HEX_32}");
  assert.notEqual(evaluate(t, scopeOf()), evaluate(t, scopeOf()));
});

// ---------------------------------------------------------------------------
// toText, isConstant, expressionsOf

Deno.test("toText leaves strings alone and writes other values as JSON", () => {
  assert.equal(toText("a b"), "a b");
  assert.equal(toText(""), "");
  assert.equal(toText(42), "42");
  assert.equal(toText(1.5), "1.5");
  assert.equal(toText(true), "true");
  assert.equal(toText(null), "null");
  assert.equal(toText([1, "x"]), '[1,"x"]');
  assert.equal(toText({ a: { b: 1 } }), '{"a":{"b":1}}');
});

Deno.test("toText writes undefined as the word undefined", () => {
  // JSON.stringify(undefined) is undefined; the String() fallback keeps the result a string.
  assert.equal(toText(undefined), "undefined");
});

Deno.test("isConstant holds only for templates without expressions", () => {
  assert.equal(isConstant(parseTemplate("plain")), true);
  assert.equal(isConstant(parseTemplate("")), true);
  assert.equal(isConstant(parseTemplate("$${x} and $")), true);
  assert.equal(isConstant(parseTemplate("${RUN_ID}")), false);
  assert.equal(isConstant(parseTemplate("a ${ENV.X:-b} c")), false);
});

Deno.test("expressionsOf yields every expression in document order", () => {
  const value = compileValue({
    url: "http://${ENV.HOST}/${vars.id}",
    fixed: "x",
    list: [1, "${RUN_ID}", { deep: "${steps.s.k}" }],
  });
  const found = [...expressionsOf(value)];
  assert.deepEqual(
    found.map((f) => f.expr.text),
    ["${ENV.HOST}", "${vars.id}", "${RUN_ID}", "${steps.s.k}"],
  );
  assert.equal(found[0].template.source, "http://${ENV.HOST}/${vars.id}");
  assert.equal(found[1].template, found[0].template);
  assert.equal(found[3].template.source, "${steps.s.k}");
});

Deno.test("expressionsOf yields nothing for a constant", () => {
  assert.deepEqual([...expressionsOf(compileValue({ a: [1, "b"] }))], []);
  assert.deepEqual([...expressionsOf({ kind: "const", value: "${RUN_ID}" })], []);
});

// ---------------------------------------------------------------------------
// compileValue and render

Deno.test("compileValue keeps subtrees without expressions as constants", () => {
  assert.deepEqual(compileValue({ a: [1, "x", null, true], b: { c: 2 } }), {
    kind: "const",
    value: { a: [1, "x", null, true], b: { c: 2 } },
  });
  assert.deepEqual(compileValue(5), { kind: "const", value: 5 });
  assert.deepEqual(compileValue(null), { kind: "const", value: null });
  assert.deepEqual(compileValue("plain"), { kind: "const", value: "plain" });
});

Deno.test("compileValue unescapes $${ in constant strings", () => {
  assert.deepEqual(compileValue({ note: "$${price}" }), {
    kind: "const",
    value: { note: "${price}" },
  });
});

Deno.test("compileValue builds maps and lists only around templates", () => {
  const v = compileValue({ fixed: { a: 1 }, id: "${vars.id}", tags: ["t", "${RUN_ID}"] });
  assert.equal(v.kind, "map");
  const entries = (v as Extract<ValueTemplate, { kind: "map" }>).entries;
  assert.deepEqual(entries.map(([k, t]) => [k, t.kind]), [
    ["fixed", "const"],
    ["id", "template"],
    ["tags", "list"],
  ]);
  assert.deepEqual(entries[0][1], { kind: "const", value: { a: 1 } });
  const tags = entries[2][1] as Extract<ValueTemplate, { kind: "list" }>;
  assert.deepEqual(tags.items.map((i) => i.kind), ["const", "template"]);
});

Deno.test("compileValue throws the syntax error of a nested string", () => {
  assert.throws(
    () => compileValue({ a: [{ b: "x ${vars.}" }] }),
    (e: unknown) => {
      assert.ok(e instanceof ExpressionSyntaxError);
      assert.equal(e.message, 'Malformed expression "${vars.}": "" is not a valid name.');
      assert.equal(e.offset, 2);
      return true;
    },
  );
});

Deno.test("render resolves nested maps and lists, keeping whole-expression types", () => {
  const scope = scopeOf({
    vars: { id: 7, tags: ["a", "b"] },
    steps: { login: { token: "tok" } },
    runId: "r1",
  });
  const body = render(
    compileValue({
      id: "${vars.id}",
      name: "user-${vars.id}",
      tags: "${vars.tags}",
      nested: { list: [1, "${RUN_ID}", { auth: "Bearer ${steps.login.token}" }], fixed: true },
    }),
    scope,
  );
  assert.deepEqual(body, {
    id: 7,
    name: "user-7",
    tags: ["a", "b"],
    nested: { list: [1, "r1", { auth: "Bearer tok" }], fixed: true },
  });
});

Deno.test("render returns constants as compiled", () => {
  assert.deepEqual(render(compileValue({ a: [1, "x"] }), scopeOf()), { a: [1, "x"] });
  assert.equal(render(compileValue(3), scopeOf()), 3);
});

Deno.test("render evaluates against the scope it is given each time", () => {
  const v = compileValue({ id: "${vars.id}" });
  assert.deepEqual(render(v, scopeOf({ vars: { id: 1 } })), { id: 1 });
  assert.deepEqual(render(v, scopeOf({ vars: { id: 2 } })), { id: 2 });
});

Deno.test("render makes a new object for each render of a template map", () => {
  const v = compileValue({ id: "${vars.id}", list: ["${vars.id}"] });
  const scope = scopeOf({ vars: { id: 1 } });
  const first = render(v, scope) as { id: unknown; list: unknown[] };
  first.id = "changed";
  first.list.push("extra");
  assert.deepEqual(render(v, scope), { id: 1, list: [1] });
});

Deno.test("compileValue does not share state with its input or with other compilations", () => {
  const input = { fixed: { a: [1] }, id: "${vars.id}" };
  const one = compileValue(input);
  const two = compileValue(input);
  input.fixed.a.push(2);
  const scope = scopeOf({ vars: { id: 1 } });
  const fromOne = render(one, scope) as { fixed: { a: number[] } };
  assert.deepEqual(fromOne, { fixed: { a: [1] }, id: 1 });
  fromOne.fixed.a.push(3);
  assert.deepEqual(render(two, scope), { fixed: { a: [1] }, id: 1 });
});

Deno.test("render throws ExpressionError for an unresolvable nested expression", () => {
  assert.throws(
    () => render(compileValue({ a: ["${vars.nope}"] }), scopeOf()),
    (e: unknown) => e instanceof ExpressionError && e.message.startsWith('Flow var "nope"'),
  );
});

Deno.test("randomHex gives distinct, well-formed values of any length, across refills of its pool", () => {
  const seen = new Set<string>();
  const digits = new Set<string>();
  for (let i = 0; i < 10_000; i++) {
    const length = [32, 16, 1, 7, 33, 5000][i % 6];
    const hex = randomHex(length);
    assert.match(hex, /^[0-9a-f]*$/);
    assert.equal(hex.length, length);
    if (length >= 16) {
      assert.ok(!seen.has(hex), "a repeated value");
      seen.add(hex);
    }
    for (const d of hex) digits.add(d);
  }
  assert.equal(digits.size, 16);
});
