/**
 * Whether a flow runs alone (`serial: true`): when a step of it acts on the
 * whole API (`actsOnWholeApi`: WireMock's `POST /__admin/reset`, `DELETE
 * /__admin/mappings`). Flows run `--jobs` at a time, so such a step run
 * beside the flow that has just created a stub mapping removed it before
 * that flow read it (404); a serial flow starts after the others, alone. A
 * producer (a login, a registration, what a parameter is read from) makes
 * what others read and clears nothing, so it does not count: every flow
 * that signs in would otherwise run alone.
 *
 * @module
 */
import { actsOnWholeApi, type OpenApiOperation } from "./operations.ts";
import type { Inferred } from "./prerequisites.ts";

/**
 * The flow's `serial` value and the header line that says why (none when it may run beside others).
 *
 * @example
 * ```ts
 * import { operationsOf } from "./operations.ts";
 * import { serialOf } from "./serial.ts";
 * const ops = operationsOf({ paths: { "/mappings": { get: {}, post: {} }, "/reset": { post: {} } } });
 * const { serial, notes } = serialOf(ops, { params: new Map() });
 * if (serial !== true || !notes[0].includes("POST /reset")) throw new Error(notes.join());
 * if (serialOf(ops.slice(0, 2), { params: new Map() }).serial !== undefined) throw new Error();
 * ```
 */
export function serialOf(
  ops: Iterable<OpenApiOperation>,
  inferred: Inferred,
): { serial?: true; notes: string[] } {
  const producers = new Set<OpenApiOperation>();
  for (const links of inferred.params.values()) {
    for (const link of links) {
      for (const op of [link.producer, link.after]) if (op) producers.add(op);
    }
  }
  if (inferred.login) producers.add(inferred.login.op);
  if (inferred.login?.register) producers.add(inferred.login.register);
  const whole = [...ops].filter((op) => actsOnWholeApi(op) && !producers.has(op))
    .map((op) => `${op.method} ${op.template}`);
  if (whole.length === 0) return { notes: [] };
  return {
    serial: true,
    notes: [
      `It acts on the whole API (${whole.join(", ")}): it runs after the other flows, alone.`,
    ],
  };
}
