import assert from "node:assert/strict";
import { evaluateOutputs, fillVars } from "../../lib/run/vars.ts";
import { compileValue } from "../../lib/expr/template.ts";
import type { Context } from "../../lib/run/context.ts";
import type { Flow } from "../../lib/model/flow.ts";
import { Redactor } from "../../lib/secrets/mod.ts";

const inputs = {
  literals: new Set(["lit"]),
  vars: new Set(["token"]),
  env: new Set(["HOME_TOKEN"]),
  captures: new Set<string>(),
};

function setup(params: Record<string, string> = {}) {
  const secrets: string[] = [];
  const ctx = {
    params: new Map(Object.entries(params)),
    env: (name: string) => (name === "HOME_TOKEN" ? "h0me" : undefined),
    secret: (value: string) => void secrets.push(value),
    redactor: new Redactor(),
  } as unknown as Context;
  const vars = new Map<string, unknown>();
  const scope = { env: ctx.env, vars, steps: new Map(), runId: "r" };
  return { ctx, vars, scope, secrets };
}

Deno.test("a value an include gives wins over a run parameter, which wins over the default", () => {
  const { ctx, vars, scope } = setup({ b: "from-param", c: "extra" });
  const flow = {
    vars: ["a", "b", "token"].map((name) => ({ name, value: compileValue(name) })),
  } as unknown as Flow;
  fillVars(flow, vars, scope, ctx, inputs, new Map([["a", "given"], ["b", "given-b"]]));
  assert.deepEqual([...vars], [["a", "given"], ["b", "given-b"], ["token", "token"], [
    "c",
    "extra",
  ]]);
});

Deno.test("what the flow sends in secret places is registered once its vars exist", () => {
  const { ctx, vars, scope, secrets } = setup();
  const flow = { vars: [{ name: "token", value: compileValue("t0k3n") }] } as unknown as Flow;
  fillVars(flow, vars, scope, ctx, inputs);
  assert.deepEqual(secrets.sort(), ["h0me", "lit", "t0k3n"]);
});

Deno.test("outputs: the first that cannot be evaluated is the problem; keepGoing evaluates the rest", () => {
  const { ctx, scope, secrets } = setup();
  const outputs = [
    { name: "bad", value: compileValue("${vars.missing}") },
    { name: "api_token", value: compileValue("s3cr3t") },
  ];
  const stopped = new Map<string, unknown>();
  assert.match(evaluateOutputs(outputs, scope, ctx, stopped, false)!, /missing/);
  assert.equal(stopped.size, 0);
  const all = new Map<string, unknown>();
  assert.match(evaluateOutputs(outputs, scope, ctx, all, true)!, /missing/);
  assert.equal(all.get("api_token"), "s3cr3t");
  assert.ok(secrets.includes("s3cr3t"), "a secret-named output is a secret");
});
