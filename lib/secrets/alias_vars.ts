/**
 * A var that only renames another (`password: ${vars.made_password}`) holds
 * that var's value: when the flow sends it in a secret place, the var it
 * renames is a secret too, masked wherever it is shown even when the run
 * gives the renaming var another value (a `--vars-file` password beside the
 * run's made one, which a condition compares them by: own_account_guard.ts
 * in the OpenAPI converter).
 *
 * @module
 */
import type { VarDef } from "../model/flow.ts";

/**
 * Adds to `secret` (var names) every var a secret var of `vars` only renames, through chains.
 *
 * @example
 * ```ts
 * import { withRenamed } from "./alias_vars.ts";
 * import { compileValue } from "../expr/parse.ts";
 * const vars = [
 *   { name: "made_password", value: compileValue("${RANDOM.PASSWORD}") },
 *   { name: "password", value: compileValue("${vars.made_password}") },
 *   { name: "label", value: compileValue("x-${vars.password}") },
 * ];
 * const secret = new Set(["password"]);
 * withRenamed(vars, secret);
 * if (!secret.has("made_password") || secret.has("label")) throw new Error([...secret].join());
 * ```
 */
export function withRenamed(vars: readonly VarDef[], secret: Set<string>): void {
  // Each round follows one more link of a chain; a chain is no longer than the vars.
  for (let round = 0; round < vars.length; round++) {
    const before = secret.size;
    for (const v of vars) {
      const renamed = renamedVar(v);
      if (renamed !== undefined && secret.has(v.name)) secret.add(renamed);
    }
    if (secret.size === before) return;
  }
}

/** The var whose value is exactly `v`'s, if any. */
function renamedVar(v: VarDef): string | undefined {
  if (v.value.kind !== "template" || v.value.template.parts.length !== 1) return undefined;
  const [part] = v.value.template.parts;
  if (typeof part === "string" || part.ref.kind !== "var" || part.ref.path) return undefined;
  return part.ref.name;
}
