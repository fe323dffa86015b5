/**
 * A tag's one create when its paths name no collection: each operation at
 * a path of its own, a verb and a noun run together (`POST /addOrder`,
 * `PUT /updateOrder/{id}`, `DELETE /deleteOrder/{id}`, all tagged
 * `Orders`). No path has items under it, so the POST read as an action on
 * the whole API: run last and alone, after the update and the delete had
 * been sent the id the summary asked the user for (404 on a fresh server),
 * while the POST made the first order. An Express shop API measured by
 * hand (2026-11-29) documents it that way with `swagger-jsdoc`.
 *
 * What the document says instead of its paths: the POST answers 201
 * Created, it is the only POST of its tag that is not already a create or
 * at an item's path, and the tag also reads, changes or removes items at
 * an item's path (a parameter), so it is what makes that tag's items. A
 * POST at an item's path is no such evidence: ExaVault's `Email` tag
 * holds `POST /email/referral` (201) and `POST /email/welcome/{username}`
 * (201), two messages sent, no item made and read back. A PUT at an item's
 * path that was read as a create only because nothing posts to its
 * collection (`PUT /updateOrder/{id}`, which answers 200 or 404, no 201)
 * updates what the POST made instead; a PATCH of the tag whose body names
 * no member is made from that PUT's schema (`updateNode`). It runs first, as
 * creates do, and a parameter of an operation of the tag that nothing else
 * produces is read from its answer (`tagMaker`). A tag holding a create of
 * its own, or two such POSTs, or no item path, keeps each as it was.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import { jsonSchema, propertiesOf, successes } from "./responses.ts";
import type { OpenApiOperation } from "./operation.ts";

/**
 * Marks the POST of each tag that makes the tag's items (see the module):
 * its role becomes `create`, and `makesTag` is set.
 *
 * @example
 * ```ts
 * import { markTagCreates } from "./tag_create.ts";
 * import type { OpenApiOperation } from "./operations.ts";
 * const op = (method: string, template: string, status: string, role?: "whole") =>
 *   ({ method, template, tag: "Orders", node: { responses: { [status]: {} } }, params: [],
 *      name: template, index: 0, ...(role ? { role } : {}) }) as OpenApiOperation;
 * const add = op("POST", "/addOrder", "201", "whole");
 * const put = { ...op("PUT", "/updateOrder/{id}", "200"), role: "create" as const };
 * markTagCreates({}, [add, put]);
 * if (add.role !== "create" || !add.makesTag || put.role !== undefined) throw new Error();
 * const reset = op("POST", "/reset", "200", "whole");
 * markTagCreates({}, [reset, op("PUT", "/updateOrder/{id}", "200")]);
 * if (reset.role !== "whole") throw new Error("no 201");
 * const alone = op("POST", "/addOrder", "201", "whole");
 * markTagCreates({}, [alone, op("GET", "/getAllOrders", "200")]);
 * if (alone.role !== "whole") throw new Error("no item path");
 * ```
 */
export function markTagCreates(doc: unknown, ops: readonly OpenApiOperation[]): void {
  const byTag = new Map<string, OpenApiOperation[]>();
  for (const op of ops) {
    if (op.tag !== undefined) byTag.set(op.tag, [...byTag.get(op.tag) ?? [], op]);
  }
  const created = (o: OpenApiOperation) => successes(doc, o.node).statuses.includes(201);
  // A PUT read as a create by its path alone (nothing posts to its collection), which
  // documents no 201: where a POST of its tag answers 201, it updates what that made.
  const byPathAlone = (o: OpenApiOperation) => o.method === "PUT" && !created(o);
  for (const tagged of byTag.values()) {
    if (tagged.some((o) => o.role === "create" && !byPathAlone(o))) continue;
    // Items that exist: read, changed or removed at an item's path (a POST there is an action).
    if (!tagged.some((o) => o.template.includes("{") && o.method !== "POST")) continue;
    const makers = tagged.filter((o) => o.method === "POST" && o.role === "whole" && created(o));
    if (makers.length !== 1) continue;
    makers[0].role = "create";
    makers[0].makesTag = true;
    for (const o of tagged) if (o.role === "create" && o !== makers[0]) delete o.role;
    borrowUpdates(doc, tagged);
  }
}

/**
 * A PATCH of the tag's items whose body names no member (`{type: object}`,
 * "a partial object containing the fields to update") changes nothing
 * when sent `{}`, and the shop API refuses it (400 "Invalid request, no
 * data provided to update!", which its document lists). The tag's one PUT
 * at an item's path says what its items hold: the PATCH's body is made
 * from that schema (`updateNode`), as it would be had its own named them
 * (a PATCH of one item sends one change when that schema requires
 * nothing: `one_change.ts`; what it requires, it sends).
 */
function borrowUpdates(doc: unknown, tagged: readonly OpenApiOperation[]): void {
  const members = (o: OpenApiOperation) => propertiesOf(doc, bodyJsonSchema(doc, o.node)).size;
  const puts = tagged.filter((o) => o.method === "PUT" && o.template.includes("{") && members(o));
  if (puts.length !== 1) return;
  for (const o of tagged) {
    const schema = bodyJsonSchema(doc, o.node);
    if (o.method === "PATCH" && o.template.includes("{") && isNode(schema) && !members(o)) {
      o.updatesLike = puts[0];
    }
  }
}

/** The JSON schema of an operation's request body, if it has one. */
function bodyJsonSchema(doc: unknown, op: Node): unknown {
  const body = deref(doc, op.requestBody);
  return isNode(body) ? jsonSchema(doc, body) : undefined;
}

/**
 * The operation as its body is made: a PATCH that borrows its tag's PUT
 * (see `borrowUpdates`) with that PUT's request body, else as it is.
 *
 * @example
 * ```ts
 * import { updateNode } from "./tag_create.ts";
 * import type { OpenApiOperation } from "./operations.ts";
 * const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
 * const put = { node: { requestBody: json({ properties: { name: { type: "string" } } }) } };
 * const patch = { method: "PATCH", node: { requestBody: json({ type: "object" }) }, updatesLike: put };
 * const node = updateNode({}, patch as unknown as OpenApiOperation);
 * if (node.requestBody !== put.node.requestBody) throw new Error();
 * ```
 */
export function updateNode(doc: unknown, op: OpenApiOperation): Node {
  const like = op.updatesLike;
  if (!like || bodyJsonSchema(doc, like.node) === undefined) return op.node;
  return { ...op.node, requestBody: like.node.requestBody };
}

/**
 * The operation that makes the items of `op`'s tag (`markTagCreates`), if
 * there is one and it is not `op` itself.
 *
 * @example
 * ```ts
 * import { tagMaker } from "./tag_create.ts";
 * import type { OpenApiOperation } from "./operations.ts";
 * const add = { method: "POST", template: "/addOrder", tag: "Orders", makesTag: true } as OpenApiOperation;
 * const put = { method: "PUT", template: "/updateOrder/{id}", tag: "Orders" } as OpenApiOperation;
 * if (tagMaker([add, put], put) !== add || tagMaker([add, put], add)) throw new Error();
 * ```
 */
export function tagMaker(
  ops: readonly OpenApiOperation[],
  op: OpenApiOperation,
): OpenApiOperation | undefined {
  if (op.tag === undefined) return undefined;
  return ops.find((o) => o !== op && o.makesTag === true && o.tag === op.tag);
}
