/**
 * Whether a flow runs alone (`serial: true`): when a step of it acts on the
 * whole API (`actsOnWholeApi`: WireMock's `POST /__admin/reset`, `DELETE
 * /__admin/mappings`). Flows run `--jobs` at a time, so such a step run
 * beside the flow that has just created a stub mapping removed it before
 * that flow read it (404); a serial flow starts after the others, alone. A
 * producer (a login, a registration, what a parameter is read from) makes
 * what others read and clears nothing, so it does not count: every flow
 * that signs in would otherwise run alone. So does a flow that deletes what
 * existed before it (Unleash's `DELETE /projects/{projectId}/environments/
 * {environment}` removed the environment the Features flow, beside it,
 * was switching its feature in: 404).
 *
 * @module
 */
import { actsOnWholeApi, isCollection, type OpenApiOperation } from "./operations.ts";
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
  if (inferred.login?.credentials) producers.add(inferred.login.credentials);
  const name = (op: OpenApiOperation) => `${op.method} ${op.template}`;
  const list = [...ops];
  const whole = list.filter((op) => actsOnWholeApi(op) && !producers.has(op)).map(name);
  const removes = list.filter((op) => removesShared(op, inferred)).map(name);
  const notes = [
    ...(whole.length > 0 ? [`It acts on the whole API (${whole.join(", ")})`] : []),
    ...(removes.length > 0 ? [`It removes what it did not make (${removes.join(", ")})`] : []),
  ];
  if (notes.length === 0) return { notes: [] };
  return { serial: true, notes: [`${notes.join("; ")}: it runs after the other flows, alone.`] };
}

/**
 * Whether an operation deletes an item that existed before its flow: the
 * item's parameter read from a listing no create of the flow fills, or
 * from a create of something else that refers to it (`{environment}` ←
 * an API token's `environment`). Every flow may be using it.
 */
function removesShared(op: OpenApiOperation, inferred: Inferred): boolean {
  if (op.method !== "DELETE" || isCollection(op.template)) return false;
  const item = /\{([^}]+)\}\/?$/.exec(op.template)?.[1];
  const link = inferred.params.get(op)?.find((l) => l.param === item);
  return link !== undefined &&
    ((link.from === "listing" && link.after === undefined) || link.existing === true);
}
