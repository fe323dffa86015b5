/**
 * The GET and POST twins of an RPC function (Etherpad serves each of its
 * functions by both): a call reads the id its own method's create answered,
 * when that create answers alike (the same `responses`). By the POST alone,
 * `GET /deleteGroup` removed the group `POST /createGroup` made, and
 * `POST /deleteGroup` then named a group already gone; now each twin of a
 * delete removes the item of its own twin create. Only in an RPC-shaped
 * document (`rpc_verbs.ts`); a REST document's GET is never a create.
 *
 * @module
 */
import type { ParamLink } from "./document_links.ts";
import type { OpenApiOperation } from "./operations.ts";
import { isRpcDocument } from "./rpc_verbs.ts";

/**
 * For a document's operations, an operation's links with each producer
 * replaced by its twin create of the operation's own method, where there is one.
 *
 * @example
 * ```ts
 * import { operationsOf } from "./operations.ts";
 * import { twinProducers } from "./rpc_twins.ts";
 * const ops = operationsOf({ paths: {
 *   "/createGroup": { get: { responses: {} }, post: { responses: {} } },
 *   "/deleteGroup": { get: {}, post: {} },
 * } });
 * const link = { param: "groupID", producer: ops[1], path: ["data", "groupID"], from: "property" as const };
 * const twins = twinProducers(ops);
 * if (twins(ops[2], [link])[0].producer !== ops[0] || twins(ops[3], [link])[0].producer !== ops[1]) {
 *   throw new Error();
 * }
 * ```
 */
export function twinProducers(
  ops: OpenApiOperation[],
): (op: OpenApiOperation, links: ParamLink[]) => ParamLink[] {
  if (!isRpcDocument(ops.map((o) => o.template))) return (_, links) => links;
  const creates = new Map<string, OpenApiOperation>();
  for (const o of ops) if (o.role === "create") creates.set(`${o.method} ${o.template}`, o);
  return (op, links) =>
    links.map((link) => {
      if (link.from !== "property" || link.producer.method === op.method) return link;
      const twin = creates.get(`${op.method} ${link.producer.template}`);
      const alike = twin &&
        JSON.stringify(twin.node.responses) === JSON.stringify(link.producer.node.responses);
      return alike && twin !== op ? { ...link, producer: twin } : link;
    });
}
