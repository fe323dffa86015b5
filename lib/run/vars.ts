/**
 * A flow run's vars and outputs: vars from the values an include gives, run
 * parameters and the flow's own defaults; outputs evaluated in the flow's
 * scope; what is secret among them registered as soon as it exists.
 *
 * @module
 */
import { render, type Scope } from "../expr/template.ts";
import { ExpressionError } from "../expr/template.ts";
import type { Flow, VarDef } from "../model/flow.ts";
import { isSecretCaptureName } from "../secrets/names.ts";
import { responseLeaves, type SecretInputs, secretsInJson } from "../secrets/discover.ts";
import type { Context } from "./context.ts";
import { secretMadeOf, shownValues } from "./shown.ts";
import { noteWrittenVars } from "./request_shown.ts";
import { expressionMessage } from "./expression_message.ts";

/**
 * Sets a flow run's vars into `vars` (the map `scope` reads): a value an
 * include `given` for it, else a run parameter of its name, else its
 * default; then every run parameter the flow does not declare. Throws
 * `ExpressionError` when a default cannot be evaluated.
 *
 * @example
 * ```ts
 * import { fillVars } from "./vars.ts";
 * import { compileValue } from "../expr/template.ts";
 * const vars = new Map<string, unknown>();
 * const scope = { env: () => undefined, vars, steps: new Map(), runId: "r" };
 * const inputs = { literals: new Set<string>(), vars: new Set<string>(), env: new Set<string>(), captures: new Set<string>() };
 * const flow = { vars: [{ name: "a", value: compileValue(1) }, { name: "b", value: compileValue(2) }] };
 * const ctx = { params: new Map([["b", "20"], ["c", "30"]]), secret: () => {}, env: () => undefined };
 * // deno-lint-ignore no-explicit-any
 * fillVars(flow as any, vars, scope, ctx as any, inputs);
 * if (vars.get("a") !== 1 || vars.get("b") !== "20" || vars.get("c") !== "30") throw new Error();
 * ```
 */
export function fillVars(
  flow: Flow,
  vars: Map<string, unknown>,
  scope: Scope,
  ctx: Context,
  inputs: SecretInputs,
  given?: ReadonlyMap<string, unknown>,
): void {
  // Run parameters exist from the start: a var (or a data row's value) may read one declared
  // further down, as the loader allows; the map then lists the flow's vars first, in order.
  for (const [name, value] of ctx.params) if (!given?.has(name)) vars.set(name, value);
  for (const v of flow.vars) {
    const value = given?.has(v.name)
      ? given.get(v.name)
      : ctx.params.get(v.name) ?? render(v.value, scope);
    // A map or list var is secret where its keys say so ({user: ann, password: …}), as a body is.
    if (typeof value === "object" && value !== null) secretsInJson(value, ctx.secret);
    vars.set(v.name, value);
  }
  noteWrittenVars(vars, flow, (name) => given?.has(name) === true || ctx.params.has(name));
  const names = [...flow.vars.map((v) => v.name), ...ctx.params.keys()];
  for (const name of new Set(names)) {
    const value = vars.get(name);
    if (vars.delete(name)) vars.set(name, value);
  }
  registerInputs(inputs, scope, ctx);
}

/** Registers what a flow sends in secret places, as soon as its vars exist. */
function registerInputs(inputs: SecretInputs, scope: Scope, ctx: Context): void {
  for (const literal of inputs.literals) ctx.secret(literal);
  // A secret var made from a shown one (`pw-${vars.id}`) masks itself, not the id.
  let shown: string[] | undefined;
  for (const name of inputs.vars) {
    if (!scope.vars.has(name)) continue;
    shown ??= shownValues(scope, inputs, (v) => ctx.redactor.has(v));
    secretMadeOf(scope.vars.get(name), shown, ctx);
  }
  // A var whose literal the flow sends as its own text under a secret-looking header is a
  // secret again when the run gives it another value (a parameter, an include's `with`).
  for (const [name, text] of inputs.ownVars ?? []) {
    const value = scope.vars.get(name);
    if (value === undefined || String(value) === text) continue;
    shown ??= shownValues(scope, inputs, (v) => ctx.redactor.has(v));
    secretMadeOf(value, shown, ctx);
  }
  for (const name of inputs.env) {
    if (!scope.vars.has(name)) {
      const value = ctx.env(name);
      if (value !== undefined) ctx.secret(value);
    }
  }
}

/**
 * Evaluates `outputs` in `scope` into `into`, each secret when its name looks
 * secret. Returns the first that cannot be evaluated, as its message; with
 * `keepGoing` the others are still evaluated.
 *
 * @example
 * ```ts
 * import { evaluateOutputs } from "./vars.ts";
 * import { compileValue } from "../expr/template.ts";
 * const scope = { env: () => undefined, vars: new Map([["id", 7]]), steps: new Map(), runId: "r" };
 * const into = new Map<string, unknown>();
 * // deno-lint-ignore no-explicit-any
 * const problem = evaluateOutputs([{ name: "id", value: compileValue("${vars.id}") }], scope, { secret: () => {} } as any, into, false);
 * if (problem !== undefined || into.get("id") !== 7) throw new Error();
 * ```
 */
export function evaluateOutputs(
  outputs: readonly VarDef[] | undefined,
  scope: Scope,
  ctx: Context,
  into: Map<string, unknown>,
  keepGoing: boolean,
): string | undefined {
  let problem: string | undefined;
  for (const o of outputs ?? []) {
    try {
      into.set(o.name, output(o, scope, ctx));
    } catch (error) {
      if (!(error instanceof ExpressionError)) throw error;
      // Masked here: the message becomes a step's, kept as flowrun's words in the reports.
      problem ??= expressionMessage(error, ctx.redactor);
      if (!keepGoing) return problem;
    }
  }
  return problem;
}

/**
 * An output's value; secret when its name looks secret, but for the plain data a server's answer
 * holds around what it issued (`api_token: ${steps.create.capture.answer}`).
 */
function output(o: VarDef, scope: Scope, ctx: Context): unknown {
  const value = render(o.value, scope);
  if (isSecretCaptureName(o.name)) responseLeaves(value, ctx.secret);
  return value;
}
