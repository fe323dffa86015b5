/**
 * What a create's answer holds by the document: the JSON schemas of an
 * operation's 2xx responses, and each property in them (a wrapper deep) by
 * plain name, where the producers of path parameters read their values.
 *
 * @module
 */
import type { OpenApiOperation } from "./operations.ts";
import { jsonSchema, successes } from "./responses.ts";
import { plainName } from "./required_props.ts";
import { singular } from "../names.ts";
import { findProperty, MAX_PROPERTY_DEPTH, properties } from "./schema_properties.ts";

/**
 * The JSON schemas of an operation's 2xx responses.
 *
 * @example
 * ```ts
 * import { responseSchemas } from "./response_paths.ts";
 * import { operationsOf } from "./operations.ts";
 * const ok = { "200": { content: { "application/json": { schema: { type: "string" } } } } };
 * const [op] = operationsOf({ paths: { "/a": { get: { responses: ok } } } });
 * if (responseSchemas({}, op).length !== 1) throw new Error();
 * ```
 */
export function responseSchemas(doc: unknown, op: OpenApiOperation): unknown[] {
  return successes(doc, op.node).responses.map((r) => jsonSchema(doc, r)).filter((s) =>
    s !== undefined
  );
}

/**
 * Every property a create's success responses hold (a wrapper deep), by
 * plain name, the shallowest path of each. A wrapper beside other members counts when it is an
 * envelope (`data`, `result`, `item`) or named for the noun the create posts to (`task` of
 * `POST /api/tasks`); a wrapper named for that noun counts inside an envelope too
 * (`data.user.id` of `POST /users`).
 *
 * @example
 * ```ts
 * import { propertyPaths } from "./response_paths.ts";
 * import { operationsOf } from "./operations.ts";
 * const item = { type: "object", properties: { data: { type: "object", properties: { slug: {} } } } };
 * const ok = { "201": { content: { "application/json": { schema: item } } } };
 * const [op] = operationsOf({ paths: { "/a": { post: { responses: ok } } } });
 * if (propertyPaths({}, op).get("slug")?.join(".") !== "data.slug") throw new Error();
 * ```
 */
export function propertyPaths(doc: unknown, op: OpenApiOperation): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const noun = collectionNoun(op.template);
  for (const schema of responseSchemas(doc, op)) {
    const top = properties(doc, schema).map(([name]) => name);
    findProperty(doc, schema, () => false, MAX_PROPERTY_DEPTH + 1, (path) => {
      if (!ownPath(path, top.length, noun)) return;
      const key = plainName(path.at(-1)!);
      const known = out.get(key);
      if (!known || path.length < known.length) out.set(key, path);
    });
  }
  return out;
}

/** Whether an envelope's, or a wrapper named for a create's noun, is it. */
function envelopeOrNoun(name: string, noun: string): boolean {
  return /^(data|result|item)$/i.test(name) || plainName(singular(name)) === noun;
}

/**
 * Whether a member at `path` of a create's answer (`tops` members at its top) is the resource's
 * own. A member of one property of many (Discord's `message_reference.message_id`) names
 * something else; one of an envelope (`{user: {…}}`, `data`) is the resource's own, and so is
 * one under the noun the create posts to (`{ok, task: {id}}` of `POST /api/tasks`), and one under
 * that noun inside an envelope (`{statusCode, data: {user: {id}}}` of `POST /users`).
 */
function ownPath(path: string[], tops: number, noun: string): boolean {
  if (path.length > 2) {
    return /^(data|result|item)$/i.test(path[0]) && noun !== "" &&
      plainName(singular(path[1])) === noun;
  }
  return path.length === 1 || tops <= 1 || envelopeOrNoun(path[0], noun);
}

/** The noun of the collection a template ends in (`task` of `/api/tasks/`), plain; "" for none. */
function collectionNoun(template: string): string {
  const last = template.split("/").filter((s) => s !== "").at(-1) ?? "";
  return last.startsWith("{") ? "" : plainName(singular(last));
}
