/**
 * Which step holds an item's identifier last: its create, or an update of
 * the item that answers it anew. An identifier made from what an update may
 * change (RealWorld's `{slug}`, from the title: "the slug also gets updated
 * when the title is changed") is stale after the update; the steps after it
 * read the update's answer. Evidence, not names: the update is a `PUT` or
 * `PATCH` of the create's own item (`/articles/{slug}` after `POST
 * /articles`) that answers what the flow's read of the item answers (the
 * item itself), which holds the identifier at the very path the create's
 * answer does (`article.slug`); another answer (`{ok: true}`, a `204`, an
 * action's report) says nothing of a new one, and a `Location` link has no
 * body path.
 * Only for text the server made (`serverText`): a name the client sent at
 * the create, or a number or UUID, stays what it was, and reading it from
 * the update would only skip the steps after an update that failed. Not
 * for a listing's first item or a name the client gives: no create answered it.
 *
 * @module
 */
import type { ParamLink } from "./document_links.ts";
import type { OpenApiOperation } from "./operations.ts";
import { isNode } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";
import { plainName } from "./required_props.ts";
import { jsonSchema, successes } from "./responses.ts";
import { findProperty, properties } from "./schema_properties.ts";
import { jsonBodyMedia } from "./json_body.ts";

/**
 * The latest of `earlier` (steps in flow order) that answers `link`'s
 * identifier: its producer, or an update of the producer's item after it
 * that answers what the item's read among them answers, `link.path` held.
 *
 * @example
 * ```ts
 * import { operationsOf } from "./operations.ts";
 * import { latestHolder } from "./renamed_ids.ts";
 * const note = { properties: { note: { properties: { slug: { type: "string" } } } } };
 * const answer = { 200: { description: "", content: { "application/json": { schema: note } } } };
 * const item = { get: { responses: answer }, put: { responses: answer } };
 * const ops = operationsOf({ paths: { "/notes": { post: { responses: answer } }, "/notes/{slug}": item } });
 * const link = { param: "slug", producer: ops[0], path: ["note", "slug"], from: "parent" as const };
 * if (latestHolder({}, link, ops) !== ops[2]) throw new Error();
 * if (latestHolder({}, link, ops.slice(0, 2)) !== ops[0]) throw new Error();
 * ```
 */
export function latestHolder(
  doc: unknown,
  link: ParamLink,
  earlier: Iterable<OpenApiOperation>,
): OpenApiOperation {
  // A listing's first item or a name the client gives is no identifier a create answered.
  const answered = link.from === "parent" || link.from === "property" || link.from === "links";
  if (!answered || link.path.length === 0 || !serverText(doc, link)) return link.producer;
  const item = `${link.producer.template.replace(/\/$/, "")}/{${link.param}}`;
  const steps = [...earlier];
  const read = steps.find((op) => op.method === "GET" && op.template.replace(/\/$/, "") === item);
  if (!read || answeredAt(doc, read, link.path).length === 0) return link.producer;
  let holder = link.producer;
  let after = false;
  for (const op of steps) {
    if (op === link.producer) after = true;
    else if (after && isUpdateOf(op, item) && sameAnswer(doc, op, read)) holder = op;
  }
  return holder;
}

/**
 * Whether an update answers what the item's read answers (RealWorld's
 * `SingleArticleResponse` both): the item itself, so the identifier in it
 * is the item's now. An action's report (Signal K's `{state, statusCode,
 * id}`) says nothing of the item's new one, even where it declares an id.
 */
function sameAnswer(doc: unknown, update: OpenApiOperation, read: OpenApiOperation): boolean {
  const answers = (op: OpenApiOperation) =>
    successes(doc, op.node).responses.map((r) => JSON.stringify(deref(doc, jsonSchema(doc, r))));
  const reads = answers(read);
  return answers(update).some((a) => a !== undefined && reads.includes(a));
}

function isUpdateOf(op: OpenApiOperation, item: string): boolean {
  return (op.method === "PUT" || op.method === "PATCH") && op.template.replace(/\/$/, "") === item;
}

/** The schemas a 2xx JSON answer of `op` declares at `path`. */
function answeredAt(doc: unknown, op: OpenApiOperation, path: string[]): unknown[] {
  return successes(doc, op.node).responses.flatMap((response) => {
    let schemas = [jsonSchema(doc, response)];
    for (const name of path) {
      schemas = schemas.flatMap((s) => properties(doc, s).filter(([n]) => n === name))
        .map(([, s]) => s);
    }
    return schemas;
  });
}

/**
 * Whether the identifier is text the server made: the create's request
 * sends nothing of its name (a name the client chose changes only when the
 * client says so), and its schema is text of no format or pattern (a number
 * or a UUID is a key made of nothing an update changes).
 */
function serverText(doc: unknown, link: ParamLink): boolean {
  const name = plainName(link.path.at(-1)!);
  const media = jsonBodyMedia(doc, link.producer.node);
  const sent = isNode(media) && findProperty(doc, media.schema, (n) => plainName(n) === name);
  return !sent && answeredAt(doc, link.producer, link.path).some((s) => {
    const schema = deref(doc, s);
    return isNode(schema) && schema.type === "string" && schema.format === undefined &&
      schema.pattern === undefined;
  });
}
