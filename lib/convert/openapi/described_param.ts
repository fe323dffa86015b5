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
 * create (the same words for two collections name neither).
 *
 * @module
 */
import { isNode } from "../../check/openapi_operations.ts";
import type { ParamLink } from "./document_links.ts";
import { clientNames, isCollection, type OpenApiOperation } from "./operations.ts";

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

/** Description → the one link producing parameters so described; undefined where two creates do. */
function describedLinks(links: Map<OpenApiOperation, ParamLink[]>) {
  const byWords = new Map<string, ParamLink | undefined>();
  for (const [op, found] of links) {
    for (const link of found) {
      // The item's own collection's create (or the document's link), read at a member.
      const made = (link.from === "parent" || link.from === "links") && link.path.length > 0;
      const p = pathParam(op, link.param);
      const words = p && made && link.producer.role === "create" ? describedAs(p) : "";
      if (words === "") continue;
      const seen = byWords.get(words);
      const same = seen?.producer === link.producer && seen.path.join() === link.path.join();
      byWords.set(words, byWords.has(words) && !same ? undefined : link);
    }
  }
  return byWords;
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
      const source = p ? byWords.get(describedAs(p)) : undefined;
      if (!source || source.producer === op) continue;
      added.push({ param, producer: source.producer, path: source.path, from: "property" });
    }
    if (added.length > 0) links.set(op, [...found, ...added]);
  }
  return links;
}
