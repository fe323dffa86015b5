/**
 * A path parameter no other rule links, described in the very words the
 * document uses for a parameter a create produces: Flowise's `GET
 * /chatmessage/{id}` and `POST /vector/upsert/{id}` are "Chatflow ID", as
 * `/chatflows/{id}` is, whose `{id}` is the id `POST /chatflows` answers.
 * Nothing else names the item (no create of `/chatmessage`, no noun in
 * `{id}`): the description is the document's word for what it names, so
 * the parameter reads the same create's answer. Only a description that
 * names something besides an id ("ID", "The unique identifier" say
 * nothing), and only when every parameter so described is produced by one
 * create, or the words name the collection of one of them: the same
 * document describes `GET /feedback/{id}` and `GET /leads/{id}` as "Chatflow
 * ID" too, each read from its own collection's create by its path, and
 * "chatflow" names `/chatflows` alone (two collections' "Item ID" name
 * neither, and link nothing).
 *
 * @module
 */
import { isNode } from "../../check/openapi_operations.ts";
import type { ParamLink } from "./document_links.ts";
import { singular } from "../names.ts";
import { clientNames, isCollection, type OpenApiOperation } from "./operations.ts";
import { plainName } from "./required_props.ts";
import { createdIn } from "./verb_segments.ts";

/** Words that say a value is an id without saying of what. */
const ID_WORDS = new Set(["id", "ids", "identifier", "unique", "uuid", "key", "the", "a", "an"]);

/**
 * A parameter's description as words to compare: lower case, no
 * punctuation; "" when it names nothing besides an id.
 *
 * @example
 * ```ts
 * import { describedAs } from "./described_param.ts";
 * if (describedAs({ description: "Chatflow ID." }) !== "chatflow id") throw new Error();
 * if (describedAs({ description: "The unique ID" }) !== "" || describedAs({}) !== "") throw new Error();
 * ```
 */
export function describedAs(param: { description?: unknown; schema?: unknown }): string {
  const schema = isNode(param.schema) ? param.schema.description : undefined;
  const text = typeof param.description === "string" ? param.description : schema;
  if (typeof text !== "string") return "";
  const words = text.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w !== "");
  return words.some((w) => !ID_WORDS.has(w)) ? words.join(" ") : "";
}

/** The path parameter `name` of `op`, or undefined. */
function pathParam(op: OpenApiOperation, name: string) {
  return op.params.find((p) => p.in === "path" && p.name === name);
}

/** Description → the links producing parameters so described, one per create and member. */
function describedLinks(links: Map<OpenApiOperation, ParamLink[]>) {
  const byWords = new Map<string, ParamLink[]>();
  for (const [op, found] of links) {
    for (const link of found) {
      // The item's own collection's create (or the document's link), read at a member.
      const made = (link.from === "parent" || link.from === "links") && link.path.length > 0;
      const p = pathParam(op, link.param);
      const words = p && made && link.producer.role === "create" ? describedAs(p) : "";
      if (words === "") continue;
      const seen = byWords.get(words) ?? [];
      const same = (l: ParamLink) =>
        l.producer === link.producer && l.path.join() === link.path.join();
      if (!seen.some(same)) byWords.set(words, [...seen, link]);
    }
  }
  return byWords;
}

/**
 * The one link of `found` for a description: the only one, else the one
 * whose create's collection the words name besides an id (`/chatflows` for
 * "Chatflow ID"), else none.
 */
function namedBy(words: string, found: readonly ParamLink[] | undefined): ParamLink | undefined {
  if (!found || found.length <= 1) return found?.[0];
  const noun = words.split(" ").filter((w) => !ID_WORDS.has(w)).join("");
  const named = found.filter((l) => {
    const last = createdIn(l.producer).split("/").filter((s) => s !== "").at(-1) ?? "";
    return plainName(singular(last)) === noun || plainName(last) === noun;
  });
  return named.length === 1 ? named[0] : undefined;
}

/**
 * `links` with a link for each path parameter it holds none for, described as
 * a parameter one create produces is (see the module doc).
 *
 * @example
 * ```ts
 * import { operationsOf } from "./operations.ts";
 * import { withDescribedParams } from "./described_param.ts";
 * const id = (description: string) => ({ parameters: [{ name: "id", in: "path", description }] });
 * const ops = operationsOf({ paths: {
 *   "/flows": { post: {} }, "/flows/{id}": { get: id("Flow ID") }, "/logs/{id}": { get: id("Flow ID") },
 * } });
 * const made = { param: "id", producer: ops[0], path: ["id"], from: "parent" as const };
 * const links = withDescribedParams(ops, new Map([[ops[1], [made]]]));
 * if (links.get(ops[2])?.[0]?.producer !== ops[0]) throw new Error();
 * ```
 */
export function withDescribedParams(
  ops: readonly OpenApiOperation[],
  links: Map<OpenApiOperation, ParamLink[]>,
): Map<OpenApiOperation, ParamLink[]> {
  const byWords = describedLinks(links);
  const named = ops.filter((o) => o.role === "create" && !isCollection(o.template));
  for (const op of ops) {
    const found = links.get(op) ?? [];
    const added: ParamLink[] = [];
    for (const [, param] of op.template.matchAll(/\{([^}]+)\}/g)) {
      // Linked already, or an item the client names at its create (the run's own name).
      if (found.some((l) => l.param === param) || clientNames(named, op, param)) continue;
      const p = pathParam(op, param);
      const words = p ? describedAs(p) : "";
      const source = words === "" ? undefined : namedBy(words, byWords.get(words));
      if (!source || source.producer === op) continue;
      added.push({ param, producer: source.producer, path: source.path, from: "property" });
    }
    if (added.length > 0) links.set(op, [...found, ...added]);
  }
  return links;
}
