/**
 * A query id the client names at an RPC create: Etherpad's `createPad?padID=…`
 * makes the pad the caller names, and no answer hands a `padID` out, so a
 * call reading a pad had nothing to send and left it out ("padID is not a
 * string"). As for a REST create at a URL the client names (`PUT
 * /files/{id}`), the run names it: a link `from: "client"` to the create,
 * which the flow sends the run's own value (`padID-${RANDOM.HEX_8}`) to and
 * every call reading it, the create copied into other tags' flows like any
 * producer. Only in an RPC-shaped document (`rpc_verbs.ts`), only for an
 * id (`…ID`) no answer holds, and only from the create of what it names:
 * a function named a create (`createPad`) whose name holds the id's noun
 * and that takes the id itself. A function served by GET and POST has two
 * creates: a call reads the name of the create of its own method (else the
 * POST's), so each twin makes an item of its own, and the delete of each
 * method removes its own; one item, made twice or removed twice, failed
 * the second time ("padID does already exist").
 *
 * @module
 */
import type { ParamLink } from "./document_links.ts";
import type { OpenApiOperation } from "./operations.ts";
import { plainName } from "./required_props.ts";
import { nameWords } from "./named_thing.ts";
import { isRpcDocument } from "./rpc_verbs.ts";

/** The query parameters an operation sends. */
function queryNames(op: OpenApiOperation): string[] {
  return op.params.filter((p) => p.in === "query").map((p) => String(p.name));
}

/** The create naming the id `param` among `creates` for a call by `method`: see the module. */
function namingCreate(
  creates: OpenApiOperation[],
  param: string,
  method: string,
): OpenApiOperation | undefined {
  const noun = plainName(param).replace(/id$/, "");
  if (noun === "" || noun === plainName(param)) return undefined;
  const naming = creates.filter((o) =>
    queryNames(o).includes(param) &&
    plainName(o.template.split("/").filter((s) => s !== "").at(-1) ?? "").includes(noun)
  );
  return naming.find((o) => o.method === method) ?? naming.find((o) => o.method === "POST") ??
    naming[0];
}

/**
 * For a document's operations, the links of an operation's query ids the
 * client names (`from: "client"`), for those `found` has no producer of;
 * none in a document with a path parameter (REST: its paths decide).
 *
 * @example
 * ```ts
 * import { operationsOf } from "./operations.ts";
 * import { clientIdLinks } from "./client_ids.ts";
 * const q = (name: string) => ({ name, in: "query" });
 * const ops = operationsOf({ paths: {
 *   "/createPad": { post: { parameters: [q("padID")] }, get: { parameters: [q("padID")] } },
 *   "/getText": { get: { parameters: [q("padID"), q("rev")] } },
 * } });
 * const links = clientIdLinks(ops);
 * const link = links(ops[2], [])[0];
 * if (link.producer !== ops[0] || link.param !== "padID" || link.from !== "client") throw new Error();
 * if (links(ops[0], []).length !== 0 || links(ops[2], [link]).length !== 0) throw new Error();
 * ```
 */
export function clientIdLinks(
  ops: OpenApiOperation[],
): (op: OpenApiOperation, found: ParamLink[]) => ParamLink[] {
  if (!isRpcDocument(ops.map((o) => o.template))) return () => [];
  const creates = ops.filter((o) => o.role === "create");
  const byParam = new Map<string, OpenApiOperation | undefined>();
  return (op, found) => {
    const unnamed: string[] = [];
    const links = queryNames(op).flatMap((param): ParamLink[] => {
      if (found.some((l) => l.param === param)) return [];
      const key = `${op.method} ${param}`;
      if (!byParam.has(key)) byParam.set(key, namingCreate(creates, param, op.method));
      const producer = byParam.get(key);
      if (!producer && isId(param)) unnamed.push(param);
      // The create sends the run's own name itself.
      if (!producer || producer === op) return [];
      return [{ param, producer, path: [], from: "client" }];
    });
    return [...links, ...nounIdLinks(creates, op, unnamed)];
  };
}

/** Whether a name is an id of something: `padID`, `source_id` (not a bare `id`). */
function isId(param: string): boolean {
  const noun = plainName(param).replace(/id$/, "");
  return noun !== "" && noun !== plainName(param);
}

/**
 * The links of `op`'s ids that nothing names (`unnamed`), when its name
 * names a noun whose id the run names at a create and it takes no such id
 * itself: `copyPad`'s `sourceID` is the run's pad (the create's `padID`),
 * and each later one a new pad of the call's own (`fresh`). A name ending
 * in the id (`getPadID`) answers it: its ids are of something else.
 */
function nounIdLinks(
  creates: OpenApiOperation[],
  op: OpenApiOperation,
  unnamed: string[],
): ParamLink[] {
  if (unnamed.length === 0) return [];
  const words = nameWords(op.template.split("/").filter((s) => s !== "").at(-1) ?? "").slice(1);
  if (words.at(-1) === "id") return [];
  for (const noun of words) {
    const own = queryNames(op).some((q) => plainName(q) === `${noun}id`);
    const id = creates.flatMap(queryNames).find((q) => plainName(q) === `${noun}id`);
    const producer = id === undefined || own ? undefined : namingCreate(creates, id, op.method);
    if (!producer || !id) continue;
    return unnamed.map((param, i): ParamLink =>
      i === 0
        ? { param, producer, path: [id], from: "client" }
        : { param, producer, path: [], from: "client", fresh: true }
    );
  }
  return [];
}

const namedBy = new WeakMap<Map<OpenApiOperation, ParamLink[]>, Set<string>>();

/** Where the run's own name of a query id comes from: the create naming it, its id there, and the var's key. */
export interface ClientName {
  /** The call that makes the item (a create, or the call itself for a `fresh` one). */
  producer: OpenApiOperation;
  /** The id's name where the item is made: `padID` for `copyPad`'s `sourceID`. */
  param: string;
  /** One name per item: `<param> <producer's index>`. */
  key: string;
}

/**
 * The run's own name of `op`'s query parameter `param`: that of the create
 * its link `from: "client"` names (`copyPad`'s `sourceID`: the create's
 * `padID`), or a new one of `op`'s own (a `fresh` link), or `op`'s own when
 * it is that create (`createPad`'s `padID`); undefined for any other.
 *
 * @example
 * ```ts
 * import { clientNaming } from "./client_ids.ts";
 * import type { OpenApiOperation } from "./operations.ts";
 * const [create, read] = [{ index: 0 }, { index: 1 }] as OpenApiOperation[];
 * const links = new Map([[read, [
 *   { param: "padID", producer: create, path: [], from: "client" as const },
 *   { param: "sourceID", producer: create, path: ["padID"], from: "client" as const },
 * ]]]);
 * if (clientNaming(links, read, "padID")?.key !== "padID 0") throw new Error();
 * if (clientNaming(links, read, "sourceID")?.key !== "padID 0") throw new Error();
 * if (clientNaming(links, create, "padID")?.producer !== create) throw new Error();
 * if (clientNaming(links, read, "rev") !== undefined) throw new Error();
 * ```
 */
export function clientNaming(
  links: Map<OpenApiOperation, ParamLink[]>,
  op: OpenApiOperation,
  param: string,
): ClientName | undefined {
  const name = (producer: OpenApiOperation, own: string) => ({
    producer,
    param: own,
    key: `${own} ${producer.index}`,
  });
  const link = links.get(op)?.find((l) => l.param === param && l.from === "client");
  if (link) return link.fresh ? name(op, param) : name(link.producer, link.path[0] ?? param);
  let named = namedBy.get(links);
  if (!named) {
    // Each create and the id it names, once per document: "<index> <param>".
    named = new Set(
      [...links.values()].flat().filter((l) => l.from === "client" && !l.fresh)
        .map((l) => `${l.producer.index} ${l.path[0] ?? l.param}`),
    );
    namedBy.set(links, named);
  }
  return named.has(`${op.index} ${param}`) ? name(op, param) : undefined;
}
