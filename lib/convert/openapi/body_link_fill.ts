/**
 * Puts what a body property's producer answered into a step's body: the
 * capture of the create a property names (body_links.ts finds the links),
 * at the property's place, in an object body, one wrapper deep, or in each
 * item of a list body (`[]`).
 *
 * @module
 */
import { type YMap, ymap, type YNode } from "../yaml_out.ts";
import type { BodyFill } from "./body_fill.ts";
import type { BodyLink } from "./body_links.ts";
import { LIST_ITEMS } from "./body_candidates.ts";
import { captureSource, memberSource } from "./capture_source.ts";
import type { OpenApiOperation } from "./operations.ts";

/**
 * Fills each body property of `op`'s links (`shared.inferred.body`) whose producer is a step so far
 * (`stepOf`, each operation's step name) with a capture of its answer
 * (`capture` names a step's capture of the member: capture_source.ts's
 * `memberSource`), an array property with the one id; each capture is
 * added to `guards` (the step runs only when it exists). A producer not in the flow leaves the body as it was.
 * A place beginning `[]` is set in each object item of a list body.
 *
 * @example
 * ```ts
 * import { fillBodyIds } from "./body_link_fill.ts";
 * import type { OpenApiOperation } from "./operations.ts";
 * import { ymap, type YNode } from "../yaml_out.ts";
 * const pets = { method: "POST", template: "/pets" } as OpenApiOperation;
 * const at = { body: ["order", "petId"], param: "order.petId" };
 * const link = { ...at, producer: pets, path: ["id"], from: "property" as const };
 * const order = ymap([["order", ymap([["petId", 1]])]]);
 * const body = { fields: [["body", order]] as [string, YNode][] };
 * const guards: string[] = [];
 * const orders = { method: "POST", template: "/orders" } as OpenApiOperation;
 * const shared = { inferred: { body: new Map([[orders, [link]]]) } };
 * const capture = (step: string, key: string) => `${step}.${key}`;
 * fillBodyIds(shared, { op: orders, body, guards, stepOf: new Map([[pets, "create_pet"]]), capture });
 * if (!JSON.stringify(body).includes('["petId","create_pet.id"]')) throw new Error();
 * if (guards.join() !== "create_pet.id") throw new Error();
 * const sort = { method: "POST", template: "/pets/set-sort-order" } as OpenApiOperation;
 * const each = { body: ["[]", "id"], param: "[].id", producer: pets, path: ["id"], from: "property" as const };
 * const list = { fields: [["body", [ymap([["id", "x"], ["sortOrder", 1]])]]] as [string, YNode][] };
 * const sorted = { inferred: { body: new Map([[sort, [each]]]) } };
 * fillBodyIds(sorted, { op: sort, body: list, guards, stepOf: new Map([[pets, "create_pet"]]), capture });
 * if (!JSON.stringify(list).includes('["id","create_pet.id"]')) throw new Error(JSON.stringify(list));
 * ```
 */
export function fillBodyIds(
  shared: { inferred: { body?: Map<OpenApiOperation, BodyLink[]> } },
  fill: BodyFill,
): void {
  const { op, body, guards, stepOf, capture } = fill;
  for (const link of shared.inferred.body?.get(op) ?? []) {
    const step = stepOf.get(link.producer);
    const at = body.fields.findIndex(([field, node]) =>
      field === "body" && (isYMap(node) || Array.isArray(node))
    );
    if (step === undefined || at < 0) continue;
    if (link.replaceOnly && !holds(body.fields[at][1], link.body)) continue;
    // Named for what the answer holds (`id`): one capture for every property reading it.
    // A listing's first item (`modules.0`) is named for its list; a path parameter's own
    // capture is read as the path reads it.
    const key = link.capture ?? (link.path.findLast((s) => !/^\d+$/.test(s)) ?? link.param).replace(
      /[^A-Za-z0-9_-]+/g,
      "_",
    ).replace(/^(?![A-Za-z_])/, "p_");
    // An answer the document does not describe is searched (captureSource): it may not hold one.
    const source = link.search || link.capture ? captureSource(link) : memberSource(link.path);
    const got = capture(step, key, source);
    const filled = withValue(body.fields[at][1], link.body, link.each ? [got] : got);
    if (!filled) continue;
    body.fields[at] = ["body", filled];
    // The path's parameter may read the same capture (self_id.ts): one condition each.
    if (!guards.includes(got)) guards.push(got);
  }
}

/**
 * `node` with `value` at `path` (a wrapper added when absent; `[]`: in each object item of a
 * list); none when a wrapper is no map, or a list has no object item.
 */
function withValue(node: YNode, path: string[], value: YNode): YNode | undefined {
  const [key, ...rest] = path;
  if (key === LIST_ITEMS) {
    if (!Array.isArray(node)) return undefined;
    const items = node.map((item) => isYMap(item) ? withValue(item, rest, value) ?? item : item);
    return items.some((item, i) => item !== node[i]) ? items : undefined;
  }
  if (!isYMap(node)) return undefined;
  const at = node.entries.findIndex(([k]) => k === key);
  const old = at < 0 ? ymap([]) : node.entries[at][1];
  const next = rest.length === 0 ? value : withValue(old, rest, value);
  if (next === undefined) return undefined;
  const entries = [...node.entries];
  if (at < 0) entries.push([key, next]);
  else entries[at] = [key, next];
  return { ...node, entries };
}

/** Whether `node` is a map holding a value at `path`. */
function holds(node: YNode, path: string[]): boolean {
  const [key, ...rest] = path;
  const found = isYMap(node) ? node.entries.find(([k]) => k === key) : undefined;
  return found !== undefined && (rest.length === 0 || holds(found[1], rest));
}

function isYMap(node: YNode): node is YMap {
  return node !== null && typeof node === "object" && !Array.isArray(node) && node.kind === "map";
}
