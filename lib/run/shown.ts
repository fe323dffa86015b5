/**
 * The values of a flow run that are shown as they are: its non-secret vars
 * and captures. A secret made from them (`password: "pw-${vars.id}"`) is
 * registered with them as its `shown` parts, so it is masked as a whole
 * while the id itself stays readable where it is a user name or a path.
 *
 * @module
 */
import type { Scope } from "../expr/template.ts";
import { type SecretInputs, secretLeaves } from "../secrets/discover.ts";
import type { Context } from "./context.ts";
import { isSecretCaptureName, isSecretName } from "../secrets/names.ts";

/**
 * The text of every var and capture in `scope` that is no secret: not named
 * like one, not sent in a secret place (`inputs`) and not registered
 * (`isSecret`, the redactor's `has`: a value from `--secret` or a secret
 * environment variable). Strings and numbers only.
 *
 * @example
 * ```ts
 * import { shownValues } from "./shown.ts";
 * const scope = {
 *   env: () => undefined,
 *   vars: new Map<string, unknown>([["id", "4f1c-77aa"], ["password", "pw-4f1c-77aa"], ["key", "k3y-value"]]),
 *   steps: new Map([["make", new Map<string, unknown>([["path", "/items/42"], ["token", "t0k3n-x"]])]]),
 *   runId: "r",
 * };
 * const inputs = { vars: new Set(["key"]), env: new Set<string>(), captures: new Set<string>(), literals: new Set<string>() };
 * const shown = shownValues(scope, inputs, () => false);
 * if (shown.join() !== "4f1c-77aa,/items/42") throw new Error(shown.join());
 * ```
 */
export function shownValues(
  scope: Scope,
  inputs: SecretInputs,
  isSecret: (value: string) => boolean,
): string[] {
  const shown: string[] = [];
  const add = (value: unknown) => {
    if (typeof value !== "string" && typeof value !== "number") return;
    const text = String(value);
    if (!isSecret(text)) shown.push(text);
  };
  for (const [name, value] of scope.vars) {
    if (!inputs.vars.has(name) && !isSecretName(name)) add(value);
  }
  for (const [step, captures] of scope.steps) {
    for (const [key, value] of captures) {
      if (!inputs.captures.has(`${step}\0${key}`) && !isSecretCaptureName(key)) add(value);
    }
  }
  return shown;
}

/**
 * Registers every leaf of a secret `value` as {@linkcode Context.secret}
 * does, with the `shown` values it was made from (see `Redactor.add`).
 *
 * @example
 * ```ts
 * import { secretMadeOf } from "./shown.ts";
 * import { Redactor } from "../secrets/mod.ts";
 * const redactor = new Redactor();
 * const id = "4f1c77aa-0b7e-4d1a-9a53";
 * secretMadeOf(`pw-${id}`, [id], { redactor, secret: (v) => redactor.add(v) });
 * if (redactor.redact(`u-${id} pw-${id}`) !== `u-${id} ***`) throw new Error();
 * ```
 */
export function secretMadeOf(
  value: unknown,
  shown: readonly string[],
  ctx: Pick<Context, "redactor" | "secret">,
): void {
  secretLeaves(value, (leaf) => {
    // With what it was made from first: `secret` then finds it known.
    ctx.redactor.add(leaf, shown);
    ctx.secret(leaf);
  });
}
