/**
 * The secrets of a run's data rows: the values of columns whose names are secret.
 *
 * @module
 */
import { isSecretName } from "./names.ts";
import { type Register, secretLeaves } from "./discover.ts";

/**
 * The values of data columns whose names are secret (`password`, `apiKey`,
 * or a name in `named`, the run's `--secret` names), in every row of every
 * flow: secrets of the run, as vars of those names from a vars file are.
 *
 * @example
 * ```ts
 * import { secretRowValues } from "./row_values.ts";
 * const rows = [{ name: "a", values: { user: "ann", password: "pw-1", apiKey: "k-1" } }];
 * const found: string[] = [];
 * // deno-lint-ignore no-explicit-any
 * secretRowValues([{ rows } as any], new Set(), (v) => void found.push(v));
 * if (found.join() !== "pw-1,k-1") throw new Error(found.join());
 * ```
 */
export function secretRowValues(
  flows: readonly { rows?: { values: Record<string, unknown> }[] }[],
  named: ReadonlySet<string>,
  register: Register,
): void {
  for (const flow of flows) {
    for (const row of flow.rows ?? []) {
      for (const [name, value] of Object.entries(row.values)) {
        if (named.has(name) || isSecretName(name)) secretLeaves(value, register);
      }
    }
  }
}
