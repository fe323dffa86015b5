/**
 * Which listing a request body property reads its value from when the
 * document says it names an item the API lists but nothing in it makes:
 * recon-ng's web API runs a module as a task from a body `{path}` the body
 * describes as "Object containing the path of the module to run", and
 * `GET /modules/` answers `{modules: [..]}`, the modules installed, each
 * the handle of `/modules/{module}`; the type's sample (`"string"`) names
 * none (404). The evidence, all of it: the description's phrase "the
 * PROPERTY of the NOUN" (the property's own description, else the body's)
 * where PROPERTY is the property's name and a word that names a thing
 * (`name`, `path`, `id`, `key`, `slug`, `identifier`, `handle`); a listing
 * of NOUN (a GET of a collection of no parameter, named for the noun's
 * plural) whose items are text or numbers, each addressing an item
 * (`/modules/{module}` beside `/modules/`); no create of NOUN anywhere (a
 * POST to a collection named for it), and a call that is not one on NOUN
 * itself (a team's create or rename says "the name of the team" of its own
 * name, GitHub's). The value is the listing's first item, as for a path
 * parameter of a listed item (`listing_values.ts`). Only a top-level
 * property the body requires and the document gives no value of (an
 * `enum`, a `const`, a `default`, an example), of a call the create-based
 * links (body_links.ts) left alone.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { singular } from "../names.ts";
import type { BodyLink } from "./body_links.ts";
import { deref } from "./examples.ts";
import { firstItemPath } from "./listing_values.ts";
import { isCollection, type OpenApiOperation } from "./operations.ts";
import { plainName } from "./required_props.ts";
import { jsonSchema, successes } from "./responses.ts";
import { properties } from "./schema_properties.ts";
import { jsonBodySchema } from "./json_body.ts";

/** The plain singular noun a collection's last segment names, if a plural (`/dashboard` is none). */
function nounOf(template: string): string | undefined {
  const last = template.replace(/\/$/, "").split("/").filter((s) => !s.startsWith("{")).at(-1);
  const noun = plainName(singular(last ?? ""));
  return noun !== "" && noun !== plainName(last ?? "") ? noun : undefined;
}

/**
 * The listings of a document by noun (see the module): GETs of a collection
 * of no parameter with an item path beneath, of a noun no POST creates.
 */
function listingsByNoun(ops: OpenApiOperation[]): Map<string, OpenApiOperation> {
  const made = new Set(
    ops.filter((o) => o.method === "POST" && isCollection(o.template)).map((o) =>
      nounOf(o.template)
    ),
  );
  const out = new Map<string, OpenApiOperation>();
  for (const op of ops) {
    const path = op.template.replace(/\/$/, "");
    const noun = nounOf(path);
    if (op.method !== "GET" || path.includes("{") || !noun || made.has(noun)) continue;
    // Its items address items: `/modules/{module}` beside `/modules/`.
    const items = ops.some((o) =>
      o.template.startsWith(`${path}/`) && /^\{[^}]+\}\/?$/.test(o.template.slice(path.length + 1))
    );
    if (items && !out.has(noun)) out.set(noun, op);
  }
  return out;
}

/** Whether the document gives the property's value: an enum, a const, a default, an example. */
function givesValue(p: Node): boolean {
  return Array.isArray(p.enum) || "const" in p || "default" in p || p.example !== undefined ||
    Array.isArray(p.examples);
}

/** The words that name a thing: what a list of its handles holds. */
const NAMING = /^(name|path|id|key|slug|identifier|handle)$/i;

/** The noun the phrase "the NAME of (the|a|an) NOUN" of `text` names, plain and singular. */
function saidNoun(text: unknown, name: string): string | undefined {
  if (typeof text !== "string") return undefined;
  const words = name.replace(/[^A-Za-z0-9]+/g, " ").trim();
  if (!NAMING.test(words)) return undefined;
  const phrase = new RegExp(`\\bthe ${words} of (?:the |an? )?([A-Za-z][A-Za-z-]*)`, "i");
  const noun = phrase.exec(text)?.[1];
  return noun === undefined ? undefined : plainName(singular(noun));
}

/** An operation's JSON request body: its description and its schema. */
function requestBody(doc: unknown, op: OpenApiOperation): { said: unknown; schema: unknown } {
  const body = deref(doc, op.node.requestBody);
  if (!isNode(body) || !isNode(body.content)) return { said: undefined, schema: undefined };
  return { said: body.description, schema: jsonBodySchema(doc, op.node) };
}

/** The link of property `name` of `op` to the first item `listing` answers, if it holds one. */
function listedLink(
  doc: unknown,
  listing: OpenApiOperation,
  name: string,
): BodyLink | undefined {
  const last = listing.template.replace(/\/$/, "").split("/").at(-1) ?? "";
  for (const response of successes(doc, listing.node).responses) {
    const path = firstItemPath(doc, jsonSchema(doc, response), name, last);
    // The item itself, a text or a number: the handle (not a property of an item).
    if (path?.at(-1) === "0") {
      return { param: name, producer: listing, path, from: "listing", body: [name] };
    }
  }
  return undefined;
}

/** The links of `op`'s body properties said to name an item `listings` lists (see the module). */
function opLinks(
  doc: unknown,
  op: OpenApiOperation,
  listings: Map<string, OpenApiOperation>,
): BodyLink[] {
  const { said, schema } = requestBody(doc, op);
  const top = deref(doc, schema);
  const needed = isNode(top) && Array.isArray(top.required) ? top.required : [];
  const own = nounOf(op.template);
  const links: BodyLink[] = [];
  for (const [name, p] of properties(doc, schema)) {
    if (!needed.includes(name) || givesValue(p) || op.template.includes(`{${name}}`)) continue;
    const noun = saidNoun(p.description, name) ?? saidNoun(said, name);
    const listing = noun === undefined || noun === own ? undefined : listings.get(noun);
    const link = listing && listing !== op ? listedLink(doc, listing, name) : undefined;
    if (link) links.push(link);
  }
  return links;
}

/**
 * `linked`, the create-based links of each operation's body (body_links.ts),
 * with those of the body properties said to name an item of a listed noun
 * nothing creates (see the module) for each operation it has none for.
 *
 * @example
 * ```ts
 * import { operationsOf } from "./operations.ts";
 * import { withListedBodyLinks } from "./body_listed.ts";
 * const json = (schema: object) => ({ content: { "application/json": { schema } } });
 * const list = { properties: { modules: { type: "array", items: { type: "string" } } } };
 * const doc = { paths: {
 *   "/modules/": { get: { responses: { 200: json(list) } } },
 *   "/modules/{module}": { get: {} },
 *   "/tasks/": { post: { requestBody: { description: "the path of the module to run",
 *     ...json({ required: ["path"], properties: { path: { type: "string" } } }) } } },
 * } };
 * const [modules, module, tasks] = operationsOf(doc);
 * const links = withListedBodyLinks(doc, [modules, module, tasks], new Map());
 * const [link] = links.get(tasks) ?? [];
 * if (link?.producer !== modules || link.path.join() !== "modules,0") throw new Error();
 * ```
 */
export function withListedBodyLinks(
  doc: Node,
  ops: OpenApiOperation[],
  linked: Map<OpenApiOperation, BodyLink[]>,
): Map<OpenApiOperation, BodyLink[]> {
  const listings = listingsByNoun(ops);
  if (listings.size === 0) return linked;
  for (const op of ops) {
    if (op.method === "GET" || op.method === "HEAD" || linked.has(op)) continue;
    const links = opLinks(doc, op, listings);
    if (links.length > 0) linked.set(op, links);
  }
  return linked;
}
