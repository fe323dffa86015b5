/**
 * An optional query parameter the function's own words name, in an
 * RPC-shaped document (`rpc_verbs.ts`): Etherpad's document marks every
 * argument optional, and the converter leaves optional parameters out, so
 * `setText` set no text ("text is not a string"). There a function's name
 * is what it does: `setText` sets the `text`, `setHTML` the `html`,
 * `set_chat_head` the `chatHead`. A parameter is sent when its name (case,
 * `_` and `-` aside) is one word, or several in a row, of the function's
 * name after its first word, the verb (the last path segment, or the
 * `operationId`); or when it is the first, and the name ends in a
 * preposition that asks for it (`createGroupIfNotExistsFor`'s
 * `groupMapper`); or when the thing the name names, as the document
 * describes it elsewhere, holds it (`named_thing.ts`: `appendChatMessage`'s
 * `text`, since `getChatHistory`'s `messages` hold a `text`); or when the
 * summary names it as it names a body's property (`summary_named.ts`:
 * "validUntil is an unix timestamp"). A REST
 * document's optional parameters stay out: its paths say what an operation
 * acts on, and an id like `listPetsByStatus` names a filter, not a need;
 * but not those its call needs by where it sits (`query_needed.ts`: a path
 * naming one, an item's fields in a bodiless write, a sign-in by query).
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { namedThing, nameWords } from "./named_thing.ts";
import type { OpenApiOperation } from "./operations.ts";
import { plainName } from "./required_props.ts";
import { isRpcDocument } from "./rpc_verbs.ts";
import { saidNeeded } from "./said_needed.ts";
import { names } from "./summary_named.ts";
import { queryNeeded } from "./query_needed.ts";

export { itemParam } from "./query_needed.ts";

const rpcDocuments = new WeakMap<Node, boolean>();

/** Whether `doc`'s paths are RPC-shaped, read once per document. */
function rpcShaped(doc: Node): boolean {
  let rpc = rpcDocuments.get(doc);
  if (rpc === undefined) {
    rpc = isRpcDocument(isNode(doc.paths) ? Object.keys(doc.paths) : []);
    rpcDocuments.set(doc, rpc);
  }
  return rpc;
}

/** Last words of a name that ask for an object: `createGroupIfNotExistsFor` (what for?). */
const PREPOSITIONS = new Set(["for", "by", "with", "from", "of", "to", "in", "on", "at"]);

/** The function's name when it ends in a preposition and `p` is its first query parameter. */
function objectOf(op: OpenApiOperation, p: Node): string | undefined {
  const last = op.template.split("/").filter((s) => s !== "").at(-1) ?? "";
  const words = nameWords(last);
  if (words.length < 2 || !PREPOSITIONS.has(words.at(-1)!)) return undefined;
  return op.params.find((q) => q.in === "query") === p ? last : undefined;
}

/** The function's name that names `param`, or undefined: see the module. */
function namingName(op: OpenApiOperation, param: string): string | undefined {
  const last = op.template.split("/").filter((s) => s !== "").at(-1) ?? "";
  const id = typeof op.node.operationId === "string" ? op.node.operationId : "";
  const plain = plainName(param);
  return [last, id].find((name) => {
    const words = nameWords(name);
    for (let i = 1; i < words.length; i++) {
      for (let j = i + 1; j <= words.length; j++) {
        if (words.slice(i, j).join("") === plain) return true;
      }
    }
    return false;
  });
}

/**
 * Why an optional query parameter of `op` is sent (see the module), or
 * undefined: it is not, or `doc` is not RPC-shaped.
 *
 * @example
 * ```ts
 * import { namedBy } from "./name_named.ts";
 * import type { OpenApiOperation } from "./operations.ts";
 * const doc = { paths: { "/createSession": {} } };
 * const summary = "creates a session. validUntil is an unix timestamp";
 * const op = { template: "/createSession", node: { summary } } as unknown as OpenApiOperation;
 * if (namedBy(doc, op, { name: "validUntil", in: "query" }) !== "its summary names it") throw new Error();
 * if (namedBy(doc, op, { name: "authorID", in: "query" }) !== undefined) throw new Error();
 * ```
 */
export function namedBy(doc: Node, op: OpenApiOperation, p: Node): string | undefined {
  if (p.in !== "query" || typeof p.name !== "string" || !rpcShaped(doc)) return undefined;
  const name = namingName(op, p.name);
  if (name !== undefined) return `the function's name, ${name}, names it`;
  const object = objectOf(op, p);
  if (object !== undefined) {
    return `${object} ends in a preposition: its first argument is its object`;
  }
  const thing = namedThing(doc, op, p.name);
  if (thing !== undefined) return `a ${thing} holds ${p.name}, as the document describes one`;
  const summary = typeof op.node.summary === "string" ? op.node.summary.toLowerCase() : "";
  const said = summary.split(/[^a-z0-9]+/).some((w) => w !== "" && names(w, p.name as string));
  return said ? "its summary names it" : undefined;
}

/**
 * Whether parameter `p` of `op` is sent: it is required, or its description
 * says it must be given (`said_needed.ts`), or it is an optional query
 * parameter the function's own words name in an RPC-shaped `doc` (see the
 * module) or its REST call needs (`query_needed.ts`), which a note in
 * `comments` says.
 *
 * @example
 * ```ts
 * import { sends } from "./name_named.ts";
 * import type { OpenApiOperation } from "./operations.ts";
 * const doc = { paths: { "/createPad": {}, "/setText": {} } };
 * const op = { template: "/setText", node: {} } as OpenApiOperation;
 * const comments: string[] = [];
 * if (!sends(doc, op, { name: "text", in: "query" }, comments) || comments.length !== 1) {
 *   throw new Error();
 * }
 * if (sends(doc, op, { name: "rev", in: "query" }, [])) throw new Error();
 * if (sends({ paths: { "/pets/{id}": {} } }, op, { name: "text", in: "query" }, [])) throw new Error();
 * ```
 */
export function sends(doc: Node, op: OpenApiOperation, p: Node, comments: string[]): boolean {
  if (p.required === true || saidNeeded(doc, op, p, comments)) return true;
  const why = namedBy(doc, op, p) ?? queryNeeded(doc, op, p);
  if (why !== undefined) comments.push(`optional, sent: query ${p.name} (${why})`);
  return why !== undefined;
}
