/** One check per kind of reference (lib/load/ref_checks.ts). */
import assert from "node:assert/strict";
import { checkRef, type RefScope } from "../../lib/load/ref_checks.ts";
import type { Expr } from "../../lib/expr/template.ts";

function problems(expr: Expr, over: Partial<RefScope> = {}): string[] {
  const seen: string[] = [];
  const scope: RefScope = {
    setup: undefined,
    known: () => false,
    varNames: [],
    available: [],
    env: () => undefined,
    checkEnv: true,
    rank: () => 0,
    byName: new Map(),
    report: (code, message, hint) => void seen.push(`${code}: ${message} ${hint}`),
    ...over,
  };
  checkRef(expr, scope);
  return seen;
}

Deno.test("setup outputs: none declared, or a near name suggested", () => {
  const expr: Expr = { ref: { kind: "setup", name: "tokn" }, text: "${setup.tokn}", offset: 0 };
  assert.deepEqual(problems(expr), []);
  assert.match(
    problems(expr, { setup: new Set() })[0],
    /but the run has none\. This flow reads the run's setup outputs \("tokn"\), so it cannot run on its own: run it with --setup FILE/,
  );
  assert.match(
    problems(expr, { setup: new Set(["token"]) })[0],
    /^unknown-output: No setup flow hands out "tokn".*Did you mean "\$\{setup\.token\}"\?$/,
  );
});

Deno.test("a step value in a var, and generated values that always exist", () => {
  const step: Expr = {
    ref: { kind: "step", step: "a", key: "id" },
    text: "${steps.a.id}",
    offset: 0,
  };
  assert.match(problems(step)[0], /^step-in-var: /);
  for (const kind of ["random-uuid", "run-id", "trace-id"] as const) {
    assert.deepEqual(problems({ ref: { kind }, text: "", offset: 0 }), []);
  }
});

Deno.test("a var defined further down is named so, whichever way it is spelt", () => {
  const later = { varNames: ["a", "b"], available: ["a"] };
  const plain: Expr = { ref: { kind: "name", name: "b" }, text: "${b}", offset: 0 };
  const dotted: Expr = { ref: { kind: "var", name: "b" }, text: "${vars.b}", offset: 0 };
  assert.match(problems(plain, later)[0], /^unknown-var: Var "b" is used before it is defined/);
  assert.match(problems(dotted, later)[0], /^unknown-var: Var "b" is used before it is defined/);
  assert.deepEqual(problems(plain, { checkEnv: false }), []);
});
