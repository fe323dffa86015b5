/**
 * Two operations of a flow that each end the item one create made: etcd's
 * gateway serves one RPC under two paths (`POST /v3/lease/revoke`, `POST
 * /v3/kv/lease/revoke`), both reading the lease `lease/grant` made, and the
 * second found it revoked (404); a REST document does the same with a
 * deprecated alias of a DELETE (`/v1/pets/{id}` beside `/pets/{id}`) or an
 * archive before a delete. A flow holds a step once, so the one producer
 * fed both: each ender after the first gets an item of its own, a copy of
 * the producer (a step of its own name) just before it, whose captures it
 * alone reads. Reads and updates still read the first.
 *
 * What an operation ends is read from where its id comes from, never from a
 * key's name: a DELETE of an item's path (its last segment the item's
 * parameter), an action on it named for an end (`/pets/{id}/archive`), or
 * any method under a delete verb before it (Sails' shortcut `GET
 * /message/destroy/{id}` beside `DELETE /message/{id}`), ends the item its
 * producer made; an RPC function named for an end
 * (`lease/revoke`, `deletePad`) ends what its one create's link made. A
 * call whose path names the first's end (`DELETE /archive/{name}` after an
 * archive) acts on the ended item and reads the first.
 * Only an item a create makes anew counts: one read from a listing, or that
 * existed before the flow, is the same item again in any copy.
 *
 * @module
 */
import type { ParamLink } from "./document_links.ts";
import { clientNames, type OpenApiOperation } from "./operations.ts";
import type { Inferred } from "./prerequisites.ts";
import { secondSignIns } from "./second_sign_in.ts";
import { verbItem } from "./verb_segments.ts";

/** A producer an operation gets a copy of, and why, as the summary and the step's comment say it. */
export interface OwnItem {
  producer: OpenApiOperation;
  why: string;
}

// The verbs that end an item: a gateway's last segment after its noun, a REST action after the
// item; the deletes `rpc_verbs.ts` knows but a move (the item lives on under its new id).
const END = "delete|remove|destroy|drop|purge|revoke|cancel|archive";
const ENDS = new RegExp(`^(${END})$`, "i");
// An RPC function named verb first (`deletePad`, `remove_author`).
const ENDS_FIRST = new RegExp(`^(${END})(?=[A-Z0-9_-])`);

const nameOf = (op: OpenApiOperation) => `${op.method} ${op.template}`;

/** Whether a link's value is an item its producer makes anew (a copy makes another). */
function made(link: ParamLink): boolean {
  return ["parent", "property", "links", "location"].includes(link.from) && !link.existing &&
    !link.fresh;
}

/**
 * The item parameter an operation ends on a REST path: `id` of `DELETE /pets/{id}`, of
 * `/pets/{id}/archive`, and of `/pets/delete/{id}` whatever its method (`verb_segments.ts`).
 */
function endedParam(op: OpenApiOperation): string | undefined {
  const segments = op.template.replace(/\/$/, "").split("/");
  const last = segments.at(-1) ?? "";
  // A REST read ends nothing, whatever its path says; but a delete verb before the item does.
  const acts = op.method !== "GET" && op.method !== "HEAD" && ENDS.test(last);
  const verbed = verbItem(op.template)?.verb === "delete";
  const item = op.method === "DELETE" || verbed ? last : acts ? segments.at(-2) ?? "" : "";
  return /^\{([^}]+)\}$/.exec(item)?.[1];
}

/** Whether an RPC function's name says it ends what it names (`lease/revoke`, `deletePad`). */
function endsByName(op: OpenApiOperation): boolean {
  const segments = op.template.split("/").filter((s) => s !== "");
  const last = segments.at(-1) ?? "";
  const id = typeof op.node.operationId === "string" ? op.node.operationId : "";
  return (segments.length > 1 && ENDS.test(last)) || ENDS_FIRST.test(last) ||
    ENDS_FIRST.test(id);
}

/**
 * Whether `op` acts on what `ender`'s end left, its path naming that end:
 * `DELETE /archive/{name}` ("deletes an archived feature") after `POST
 * /features/{name}/archive` needs the archived item, not a new one.
 */
function actsOnEnded(op: OpenApiOperation, ender: OpenApiOperation): boolean {
  const words = (o: OpenApiOperation) => o.template.split("/").filter((s) => s !== "");
  const end = words(ender).at(-1) ?? "";
  const own = words(op);
  if (ENDS.test(own.at(-1) ?? "")) own.pop();
  return ENDS.test(end) && own.some((w) => w.toLowerCase() === end.toLowerCase());
}

/** Whether `template` is an item's path under the collection path `base` (`/roles/{id}` of `/roles`). */
function itemPathOf(template: string, base: string): boolean {
  return template.startsWith(`${base}/`) && /^\{[^}]+\}$/.test(template.slice(base.length + 1));
}

/**
 * The create whose item `op` ends (see the module), among the flow's
 * operations `ops`; none when it ends nothing or its item is no create's.
 */
function endedItem(
  op: OpenApiOperation,
  ops: OpenApiOperation[],
  inferred: Inferred,
): OpenApiOperation | undefined {
  const links = [...inferred.params.get(op) ?? [], ...inferred.body?.get(op) ?? []];
  const param = endedParam(op);
  if (param !== undefined) {
    const link = links.find((l) => l.param === param);
    if (link) return made(link) ? link.producer : undefined;
    // An item the client names at its create (`PUT /pets/{name}`): its copy makes that name again.
    const item = op.template.slice(0, op.template.indexOf(`{${param}}`) + param.length + 2);
    return clientNames(ops, op, param)
      ? ops.find((o) => o.role === "create" && o.template.replace(/\/$/, "") === item)
      : undefined;
  }
  // A delete of many ends the item it lists (many_delete.ts), which its path's own delete ends.
  if (op.method === "DELETE" && op.lists !== undefined) {
    const own = ops.find((o) => o.method === "DELETE" && itemPathOf(o.template, op.template));
    return own === undefined ? undefined : endedItem(own, ops, inferred);
  }
  if (op.template.includes("{") || !endsByName(op)) return undefined;
  // Only an RPC call whose links name one create: a revoke of a role from a user ends neither.
  const creates = new Set(links.filter((l) => made(l) && l.producer.role === "create"));
  const producers = new Set([...creates].map((l) => l.producer));
  return producers.size === 1 ? [...producers][0] : undefined;
}

/**
 * For a flow's operations in the order they run, each operation that ends
 * the item an earlier one ended too, and the producer it gets a copy of
 * (the login, for a second end of the session: `second_sign_in.ts`).
 *
 * @example
 * ```ts
 * import { operationsOf } from "./operations.ts";
 * import { ownItems } from "./second_producer.ts";
 * const ops = operationsOf({ paths: {
 *   "/pets": { post: {} }, "/pets/{id}": { delete: {} }, "/v1/pets/{id}": { delete: {} },
 * } });
 * const [create, remove, alias] = ops;
 * const link = { param: "id", producer: create, path: ["id"], from: "parent" as const };
 * const own = ownItems([create, remove, alias], { params: new Map([[remove, [link]], [alias, [link]]]) });
 * if (own.size !== 1 || own.get(alias)?.producer !== create) throw new Error();
 * if (own.get(alias)?.why !== "a second POST /pets for DELETE /v1/pets/{id}, which ends what DELETE /pets/{id} ended too") {
 *   throw new Error(own.get(alias)?.why);
 * }
 * ```
 */
export function ownItems(
  ops: OpenApiOperation[],
  inferred: Inferred,
): Map<OpenApiOperation, OwnItem> {
  const first = new Map<OpenApiOperation, OpenApiOperation>();
  const out = new Map<OpenApiOperation, OwnItem>();
  for (const op of ops) {
    const producer = endedItem(op, ops, inferred);
    if (producer === undefined || producer === op || !ops.includes(producer)) continue;
    const ender = first.get(producer);
    if (ender === undefined) {
      first.set(producer, op);
      continue;
    }
    if (actsOnEnded(op, ender)) continue;
    const why = `a second ${nameOf(producer)} for ${nameOf(op)}, which ends what ${
      nameOf(ender)
    } ended too`;
    out.set(op, { producer, why });
  }
  // The session is the item the login made: each ender after the first signs in again.
  for (const [op, own] of secondSignIns(ops, inferred)) if (!out.has(op)) out.set(op, own);
  return out;
}

/**
 * Adds `op`'s step after a copy of `own.producer` (`add` adds a step and
 * answers its comments; `stepOf` maps each operation to the step its
 * readers read): `op` reads the copy, every later step the first again.
 *
 * @example
 * ```ts
 * import type { OpenApiOperation } from "./operations.ts";
 * import { withOwnItem } from "./second_producer.ts";
 * const grant = { name: "grant" } as OpenApiOperation;
 * const revoke = { name: "revoke" } as OpenApiOperation;
 * const stepOf = new Map([[grant, "grant"]]);
 * const seen: string[] = [];
 * const add = (op: OpenApiOperation) => {
 *   const name = op === grant ? "grant_2" : op.name;
 *   seen.push(`${name} reads ${stepOf.get(grant)}`);
 *   stepOf.set(op, name);
 *   return [];
 * };
 * withOwnItem(stepOf, { producer: grant, why: "" }, add, revoke);
 * if (seen.join() !== "grant_2 reads undefined,revoke reads grant_2") throw new Error(seen.join());
 * if (stepOf.get(grant) !== "grant" || stepOf.get(revoke) !== "revoke") throw new Error();
 * ```
 */
export function withOwnItem(
  stepOf: Map<OpenApiOperation, string>,
  own: OwnItem,
  add: (op: OpenApiOperation) => string[],
  op: OpenApiOperation,
): string[] {
  const before = [...stepOf];
  // Out of the map and back in last: the copy is the latest holder of its id (renamed_ids.ts).
  stepOf.delete(own.producer);
  add(own.producer).push(own.why);
  const comments = add(op);
  const name = stepOf.get(op)!;
  stepOf.clear();
  for (const [o, step] of before) stepOf.set(o, step);
  stepOf.set(op, name);
  return comments;
}
