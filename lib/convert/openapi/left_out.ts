/**
 * The operations a suite leaves out, and why, for the summary and each
 * flow's header: those that stop the server (`stops.ts`), those flowrun
 * cannot send (TRACE), and the writes of an item the run made without
 * being told its id, when nothing in the listing tells that item from the
 * others (`own_listed.ts`): sent to the listing's first, Strapi's
 * `DELETE /users-permissions/roles/{role}` deleted a built-in role.
 *
 * @module
 */
import type { Inferred } from "./prerequisites.ts";
import type { OpenApiOperation } from "./operations.ts";

/** The operations left out, and why, as the summary lists them. */
export interface LeftOut {
  /** The operations left out because they stop the server: `POST /__admin/shutdown`. */
  stopping?: string[];
  /** The operations left out because flowrun cannot send their method (TRACE): `TRACE /echo`. */
  unsendable?: string[];
  /** The writes left out because the run cannot tell its own item (`own_listed.ts`), by why. */
  ambiguous?: { why: string; operations: string[] }[];
}

const nameOf = (o: OpenApiOperation) => `${o.method} ${o.template}`;

/**
 * Each operation left out because the item it writes cannot be told from
 * others (a link's `ambiguous`), with why.
 *
 * @example
 * ```ts
 * import { ambiguousOps } from "./left_out.ts";
 * import { operationsOf } from "./operations.ts";
 * const [list, remove] = operationsOf({ paths: { "/roles": { get: {} }, "/roles/{id}": { delete: {} } } });
 * const link = { param: "id", producer: list, path: [], from: "listing" as const, ambiguous: "no way" };
 * if (ambiguousOps({ params: new Map([[remove, [link]]]) }).get(remove) !== "no way") throw new Error();
 * ```
 */
export function ambiguousOps(inferred: Inferred): Map<OpenApiOperation, string> {
  const out = new Map<OpenApiOperation, string>();
  for (const [op, links] of inferred.params) {
    const why = links.find((l) => l.ambiguous !== undefined)?.ambiguous;
    if (why !== undefined) out.set(op, why);
  }
  return out;
}

/**
 * The summary's record of the operations left out (see the module), in the document's order.
 *
 * @example
 * ```ts
 * import { leftOutLines } from "./left_out.ts";
 * import { operationsOf } from "./operations.ts";
 * const [stop] = operationsOf({ paths: { "/shutdown": { post: {} } } });
 * if (leftOutLines([stop], [], new Map()).stopping?.[0] !== "POST /shutdown") throw new Error();
 * ```
 */
export function leftOutLines(
  stopping: OpenApiOperation[],
  unsendable: OpenApiOperation[],
  ambiguous: Map<OpenApiOperation, string>,
): LeftOut {
  const byWhy = new Map<string, string[]>();
  for (const [op, why] of ambiguous) byWhy.set(why, [...byWhy.get(why) ?? [], nameOf(op)]);
  const groups = [...byWhy].map(([why, operations]) => ({ why, operations }));
  return {
    ...(stopping.length > 0 ? { stopping: stopping.map(nameOf) } : {}),
    ...(unsendable.length > 0 ? { unsendable: unsendable.map(nameOf) } : {}),
    ...(groups.length > 0 ? { ambiguous: groups } : {}),
  };
}

/**
 * The header lines of a flow for the operations of its tag left out, and why (`METHOD`: theirs;
 * a function: each one's own).
 *
 * @example
 * ```ts
 * import { leftOut } from "./left_out.ts";
 * import { operationsOf } from "./operations.ts";
 * const [stop] = operationsOf({ paths: { "/shutdown": { post: { tags: ["admin"] } } } });
 * const lines = leftOut([stop], "admin", "it stops the server");
 * if (lines[0] !== "Left out: POST /shutdown (it stops the server).") throw new Error(lines[0]);
 * ```
 */
export function leftOut(
  ops: Iterable<OpenApiOperation>,
  tag: string | undefined,
  why: string | ((op: OpenApiOperation) => string),
): string[] {
  return [...ops].filter((op) => op.tag === tag && tag !== undefined).map((op) =>
    `Left out: ${op.method} ${op.template}${
      typeof op.node.summary === "string" ? ` — ${op.node.summary}` : ""
    } (${typeof why === "string" ? why.replace("METHOD", op.method) : why(op)}).`
  );
}
