/**
 * The writes a document gives nothing to send: a create (a POST to a
 * collection) or an update (a PUT or PATCH of an item) with no request body
 * and no query or form parameter. Such a step sends nothing, as the document
 * says; a server that wants the item answers 400 or 422 naming its members
 * (a NestJS 7 RealWorld backend, whose `@Body()` classes `@nestjs/swagger`
 * never read, documented none of its 7 writes' bodies), so the summary names
 * them and says what to do rather than leaving the user a wall of 4xx. Only
 * a create of items the document addresses one by one, and an update of an
 * item its collection's POST creates, are named: an action (`POST
 * /posts/{id}/star`, `POST /profiles/{name}/follow`, `PUT /me/follows/{user}`)
 * needs no body.
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import { isCollection, type OpenApiOperation } from "./operations.ts";
import { summaryBodySchema } from "./summary_body.ts";
import { siblingBody } from "./sibling_body.ts";

/**
 * `METHOD /template` of each write of `ops` the document gives nothing to send.
 *
 * @example
 * ```ts
 * import { bodilessWrites } from "./bodiless.ts";
 * const op = (method: string, template: string, role?: string, node: object = {}) =>
 *   ({ method, template, node, params: [], role }) as never;
 * const ops = [op("POST", "/posts", "create"), op("PUT", "/posts/{id}"),
 *   op("POST", "/posts/{id}/star"), op("POST", "/notes", "create", { requestBody: {} }),
 *   op("GET", "/notes/{id}"), op("PUT", "/me/follows/{user}")];
 * if (bodilessWrites({}, ops).join() !== "POST /posts,PUT /posts/{id}") throw new Error();
 * ```
 */
export function bodilessWrites(doc: Node, ops: OpenApiOperation[]): string[] {
  const templates = ops.map((op) => op.template);
  const posted = new Set(ops.filter((op) => op.method === "POST").map((op) => op.template));
  return ops.filter((op) => {
    const write = op.method === "POST"
      ? isItemsCreate(op, templates)
      : (op.method === "PUT" || op.method === "PATCH") && !isCollection(op.template) &&
        posted.has(op.template.slice(0, op.template.lastIndexOf("/")));
    const sends = op.params.some((p) => p.in === "query" || p.in === "formData");
    // A write whose summary names the schema it hands over sends that (summary_body.ts).
    // … and a create given none sends what its item's update takes (sibling_body.ts).
    return write && !sends && deref(doc, op.node.requestBody) === undefined &&
      summaryBodySchema(doc, op) === undefined && siblingBody(doc, op) === undefined;
  }).map((op) => `${op.method} ${op.template}`);
}

/**
 * A create of items the document then addresses one by one (`POST /posts` beside
 * `/posts/{id}`): they hold what the create sends. A POST the paths read as no create (`/logout`,
 * a reset) or whose path has no items (`POST /profiles/{username}/follow`, `/gists/{id}/forks`)
 * acts, and needs nothing.
 */
function isItemsCreate(op: OpenApiOperation, templates: string[]): boolean {
  if (op.role !== "create" || !isCollection(op.template)) return false;
  const base = op.template.replace(/\/$/, "");
  return templates.some((t) =>
    t.startsWith(`${base}/{`) && !t.slice(base.length + 1).includes("/")
  );
}
