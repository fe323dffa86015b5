/**
 * The producers a document declares itself: its responses' OpenAPI `links`
 * (`who: $response.body#/owner/id` to the operation that reads `{who}`),
 * which `paramLinks` (producers.ts) takes before anything it infers, and
 * for a sub-resource of a linked one (`/owners/{who}/pets`) too.
 * Only a pointer into the response body is read, a property path as the
 * inferred producers give one; none of a response whose body is a list,
 * where a property pointer points at nothing (Platformatic DB links
 * `GET /authors/{id}/books`, a list of books, to `getAuthorById` by
 * `#/authorId`).
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import type { OpenApiOperation } from "./operations.ts";
import { jsonSchema, successes } from "./responses.ts";

/** Where a path parameter's value comes from. */
export interface ParamLink {
  param: string;
  producer: OpenApiOperation;
  /** The property's path in the producer's JSON response body: `["article", "slug"]`; none: `from: "location"`. */
  path: string[];
  /**
   * What the link was inferred from, for the summary; `location`: a segment of its `Location`;
   * `client`: a query id the producer takes and the run names (`client_ids.ts`), no capture;
   * `claim`: the `sub` of the JWT at `path` (`jwt_subject.ts`); `href`: the place of the
   * parameter in a link at `path` the document's example writes as its path (`href_link.ts`).
   */
  from: "links" | "parent" | "property" | "location" | "listing" | "client" | "claim" | "href";
  /** With `href`: the regular expression whose group reads the value in the link. */
  pattern?: string;
  /**
   * With `location`: the parameter's place among the created item's
   * segments, counted from the last (0): `{type}` of `/tags/{type}/{value}` is 1.
   */
  fromEnd?: number;
  /**
   * Whether the value names something that existed before the flow (read
   * from a create of something else, which refers to it): removing it
   * removes it for every flow.
   */
  existing?: true;
  /** With `listing`: the create run before the listing, so it lists one. */
  after?: OpenApiOperation;
  /**
   * With `client`: a new item the call itself makes, one name per call
   * (`copyPad`'s `destinationID`); `path` names the producer's own id the
   * value is instead (`["padID"]`: the run's pad), none: the parameter's.
   */
  fresh?: true;
  /**
   * With `parent` and no `path`: the names the value may stand under anywhere
   * in an answer the document does not describe (`undescribed_answer.ts`).
   */
  search?: string[];
  /** With `search`: the answer is described, without the member searched for (`unlisted_id.ts`). */
  unlisted?: true;
  /** With `search` of the account's own read: else the login token's claim (`account_subject.ts`). */
  subject?: true;
  /**
   * With `listing` after a create answering no id: the listed item's member
   * holding what the create sent (`name`), the run's own item (`own_listed.ts`).
   */
  match?: string;
  /** With `listing`: why a write cannot tell the run's own item from others (it is left out). */
  ambiguous?: string;
}

/**
 * `links` of the document's responses: target operation → parameter → link.
 *
 * @example
 * ```ts
 * import { documentLinks } from "./document_links.ts";
 * import { operationsOf } from "./operations.ts";
 * const links = { owner: { operationId: "getOwner", parameters: { who: "$response.body#/owner/id" } } };
 * const doc = {
 *   paths: {
 *     "/owners": { post: { responses: { "201": { description: "made", links } } } },
 *     "/owners/{who}": { get: { operationId: "getOwner" } },
 *   },
 * };
 * const ops = operationsOf(doc);
 * const link = documentLinks(doc, ops).get(ops[1])?.get("who");
 * if (link?.producer !== ops[0] || link.path.join(".") !== "owner.id" || link.from !== "links") {
 *   throw new Error();
 * }
 * ```
 */
export function documentLinks(
  doc: Node,
  ops: OpenApiOperation[],
): Map<OpenApiOperation, Map<string, ParamLink>> {
  const byId = new Map(
    ops.flatMap((o) =>
      typeof o.node.operationId === "string" ? [[o.node.operationId, o] as const] : []
    ),
  );
  const out = new Map<OpenApiOperation, Map<string, ParamLink>>();
  for (const producer of ops) {
    for (const response of successes(doc, producer.node).responses) {
      // A property pointer into a list answer (`#/authorId` of `[{...}]`) points at nothing.
      const links = isNode(response.links) && !listAnswer(doc, response) ? response.links : {};
      for (const raw of Object.values(links)) {
        for (const { target, link } of responseLink(doc, raw, producer, byId)) {
          const map = out.get(target) ?? new Map<string, ParamLink>();
          if (!map.has(link.param)) map.set(link.param, link);
          out.set(target, map);
        }
      }
    }
  }
  return out;
}

/** Whether the response's JSON body is a list (`type: array`, or `items` and no `properties`). */
function listAnswer(doc: Node, response: Node): boolean {
  const schema = jsonSchema(doc, response);
  if (!isNode(schema)) return false;
  return schema.type === "array" || (schema.items !== undefined && schema.properties === undefined);
}

/** The path parameters one response link sets from the producer's body, with the operation it targets. */
function responseLink(
  doc: Node,
  raw: unknown,
  producer: OpenApiOperation,
  byId: Map<string, OpenApiOperation>,
): { target: OpenApiOperation; link: ParamLink }[] {
  const declared = deref(doc, raw);
  if (!isNode(declared) || !isNode(declared.parameters)) return [];
  const target = typeof declared.operationId === "string"
    ? byId.get(declared.operationId)
    : undefined;
  if (!target || target === producer) return [];
  const out: { target: OpenApiOperation; link: ParamLink }[] = [];
  for (const [name, expr] of Object.entries(declared.parameters)) {
    const param = name.replace(/^path\./, "");
    const path = bodyPointer(expr);
    if (!path || !target.template.includes(`{${param}}`)) continue;
    out.push({ target, link: { param, producer, path, from: "links" } });
  }
  return out;
}

/**
 * The property path of a `$response.body#/…` expression; none for another
 * expression, or a pointer into an array or with an empty segment.
 */
function bodyPointer(expr: unknown): string[] | undefined {
  const m = typeof expr === "string" ? expr.match(/^\$response\.body#\/(.*)$/) : null;
  if (!m) return undefined;
  const path = m[1].split("/").map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
  if (path.some((s) => s === "" || /^\d+$/.test(s))) return undefined;
  return path;
}

/** The parameter, or "", with the path before it: `/owners/{who}` of `/owners/{who}/pets`. */
function upTo(template: string, param: string): string {
  const at = template.indexOf(`{${param}}`);
  return at < 0 ? "" : template.slice(0, at + param.length + 2);
}

/**
 * A link the document gives for the same parameter of the same resource
 * (`{who}` of `/owners/{who}`), used for its sub-resources too
 * (`/owners/{who}/pets/{petId}`).
 *
 * @example
 * ```ts
 * import { documentLinks, sameParent } from "./document_links.ts";
 * import { operationsOf } from "./operations.ts";
 * const links = { owner: { operationId: "getOwner", parameters: { who: "$response.body#/id" } } };
 * const doc = {
 *   paths: {
 *     "/owners": { post: { responses: { "201": { description: "made", links } } } },
 *     "/owners/{who}": { get: { operationId: "getOwner" } },
 *     "/owners/{who}/pets": { get: {} },
 *   },
 * };
 * const ops = operationsOf(doc);
 * const link = sameParent(documentLinks(doc, ops), ops[2], "who");
 * if (link?.producer !== ops[0] || link.path.join() !== "id") throw new Error();
 * if (sameParent(documentLinks(doc, ops), ops[2], "petId") !== undefined) throw new Error();
 * ```
 */
export function sameParent(
  declared: Map<OpenApiOperation, Map<string, ParamLink>>,
  op: OpenApiOperation,
  param: string,
): ParamLink | undefined {
  const prefix = upTo(op.template, param);
  for (const [target, links] of declared) {
    const link = links.get(param);
    if (link && link.producer !== op && upTo(target.template, param) === prefix) return link;
  }
  return undefined;
}

/**
 * The declared link of a parameter, unless it reads the item from the create
 * of another collection (`POST /books/`'s `authorId` for `/authors/{id}`)
 * while the item's own collection creates it (`parent`, from `POST
 * /authors/`): both name an author, but the book refers to it, and a delete
 * of the author the book still refers to is refused (a foreign key), so the
 * flow reads the item its own create made. No declared link: `parent`.
 *
 * @example
 * ```ts
 * import { ownCreate, type ParamLink } from "./document_links.ts";
 * import type { OpenApiOperation } from "./operations.ts";
 * const op = (method: string, template: string) =>
 *   ({ method, template, role: "create" }) as OpenApiOperation;
 * const book: ParamLink = { param: "id", producer: op("POST", "/books/"), path: ["authorId"], from: "links" };
 * const own: ParamLink = { param: "id", producer: op("POST", "/authors/"), path: ["id"], from: "parent" };
 * if (ownCreate(book, own) !== own || ownCreate(book, undefined) !== book || ownCreate(undefined, own) !== own) {
 *   throw new Error();
 * }
 * ```
 */
export function ownCreate(
  declared: ParamLink | undefined,
  parent: ParamLink | undefined,
): ParamLink | undefined {
  if (!declared || !parent) return declared ?? parent;
  const collection = (o: OpenApiOperation) => o.template.replace(/\/$/, "");
  // Only a create of another collection: a sign-in's answer (`POST /login` → `#/user/id`) is no row.
  const foreign = declared.producer.role === "create" && parent.from === "parent" &&
    parent.path.length > 0 && collection(declared.producer) !== collection(parent.producer);
  return foreign ? parent : declared;
}
