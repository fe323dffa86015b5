/**
 * An item's key when its create's answer has no `id` and nothing named like
 * the parameter: the answer's sole required text (sole_handle.ts), else,
 * when there is none, what the document says of the key. LoopBack 4's generated controllers
 * name every item's parameter `{id}` whatever the model's key
 * (`/customers/{id}` of a `Customer` keyed by `custId`, `/users/{id}` of a
 * `User` keyed by its `email`). Two pieces of evidence in the document say
 * which member it is, and nothing is guessed beyond them:
 * - another template names the same item by a member of the answer
 *   (`/users/{email}/user-credentials` beside `/users/{id}`): a parameter at
 *   the item's place under the same collection is the same key;
 * - the answer holds exactly one member named as an identifier that the
 *   create's request body leaves out (`NewCustomer` is `Customer` without
 *   `custId`): what the server made is the new item's key;
 * - first of all, the answer holds exactly one scalar member whose description
 *   says it is what the parameter names ("The token used for authentication."
 *   of Unleash's `secret`, for `/api-tokens/{token}`; "The API token …" for
 *   `{apiToken}`), not something of it ("The token's expiration date"). The
 *   create's `Location` names its collection only (`…/api-tokens`), so the
 *   parameter read from it was `api-tokens` (404).
 *
 * @module
 */
import { isNode } from "../../check/openapi_operations.ts";
import type { OpenApiOperation } from "./operations.ts";
import { plainName } from "./required_props.ts";
import { properties } from "./schema_properties.ts";
import { jsonSchema, successes } from "./responses.ts";
import { soleHandle } from "./sole_handle.ts";
import { IDENTIFIER } from "./patch_body.ts";
import { singular } from "../names.ts";
import { jsonBodyMedia } from "./json_body.ts";
import { escapeRegExp } from "../../_util/regex_escape.ts";
import { listedChoices } from "./listed_choice.ts";

/**
 * Collection path → the names its items' parameter has across the document's
 * templates (`/users` → `id`, `email`), but, given the document, a
 * parameter listing its values (`/users/{role}`, `enum: [admin, member]`).
 *
 * @example
 * ```ts
 * import { itemNames } from "./item_key.ts";
 * const templates = ["/users/{id}", "/users/{email}/notes", "/users/{group}/{name}"];
 * const names = itemNames(templates.map((template) => ({ template })) as never);
 * if ([...names.get("/users") ?? []].join() !== "id,email") throw new Error();
 * ```
 */
export function itemNames(
  ops: readonly { template: string; path?: string }[],
  doc?: unknown,
): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const op of ops) {
    const { template } = op;
    // A parameter listing its values is a choice, no item's name (listed_choice.ts).
    const choices = doc === undefined ? new Set<string>() : listedChoices(doc, op.path ?? template);
    // A parameter a second one follows (`/reservations/{warehouseId}/{skuId}`) is no item's own.
    for (const m of template.matchAll(/\/\{([^}/]+)\}(?=$|\/[^{])/g)) {
      const collection = template.slice(0, m.index);
      if (collection.includes("{") || collection === "" || choices.has(m[1])) continue;
      out.set(collection, (out.get(collection) ?? new Set()).add(m[1]));
    }
  }
  return out;
}

/**
 * The path (one member deep) of the key of the item `producer` makes that
 * `param` names (see the module doc), from the answer's members by plain
 * name (`props`), the item names of {@linkcode itemNames}, and the answer's
 * and request's schemas.
 *
 * @example
 * ```ts
 * import { itemKey } from "./item_key.ts";
 * const text = { type: "string" };
 * const body = { content: { "application/json": { schema: { properties: { name: text } } } } };
 * const answer = { content: { "application/json": { schema: { properties: { custId: text, name: text } } } } };
 * const create = { template: "/customers", node: { requestBody: body, responses: { "200": answer } } } as never;
 * const props = new Map([["custid", ["custId"]], ["name", ["name"]]]);
 * const only = new Map([["/customers", new Set(["id"])]]); // `/customers/{id}`
 * if (itemKey({}, create, "id", props, only)?.join() !== "custId") throw new Error();
 * const names = new Map([["/customers", new Set(["id", "name"])]]); // `/customers/{name}/x` too
 * if (itemKey({}, create, "id", props, names)?.join() !== "name") throw new Error();
 * ```
 */
export function itemKey(
  doc: unknown,
  producer: OpenApiOperation,
  param: string,
  props: ReadonlyMap<string, string[]>,
  names: ReadonlyMap<string, ReadonlySet<string>>,
): string[] | undefined {
  const answers = successes(doc, producer.node).responses.map((r) => jsonSchema(doc, r))
    .filter((s) => s !== undefined);
  const sole = soleHandle(doc, answers);
  if (sole) return sole;
  const collection = producer.template.replace(/\/$/, "");
  const same = names.get(collection);
  // What the answer says it is, unless a run of parameters names the item (item_names: none for
  // a collection under a parameter, `/projects/{projectId}/api-tokens`).
  const said = !same || same.has(param) ? describedAs(doc, answers, param) : undefined;
  if (said) return said;
  // Only a parameter at the item's own place (`/users/{id}`), not one of a run after it.
  if (!same?.has(param)) return undefined;
  for (const name of same) {
    const path = props.get(plainName(name));
    if (name !== param && path?.length === 1) return path;
  }
  // A parameter naming a member (`{ref}`) is no key of another name; `{id}`, `{customerId}` are.
  const noun = plainName(singular(collection.split("/").at(-1) ?? ""));
  const plain = plainName(param);
  return plain === "id" || plain === `${noun}id` ? serverMade(doc, producer, answers) : undefined;
}

/**
 * The one scalar member of every answer whose description begins by naming
 * `param` ("The token used …", "An API token …" for `{apiToken}`), not a
 * thing of it ("The token's expiration date", "The token name").
 */
function describedAs(
  doc: unknown,
  answers: readonly unknown[],
  param: string,
): string[] | undefined {
  const words = param.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ").trim();
  if (words === "") return undefined;
  const escaped = escapeRegExp(words).replace(/ /g, "[ _-]?");
  const names = new RegExp(
    `^\\s*(?:the|an?)\\s+${escaped}(?![\\w'’-])(?!\\s+(?:name|id|type)\\b)`,
    "i",
  );
  const found = answers.map((a) =>
    properties(doc, a).filter(([, p]) =>
      ["string", "integer", "number"].includes(String(p.type)) &&
      typeof p.description === "string" && names.test(p.description)
    ).map(([n]) => n)
  );
  const [first] = found;
  const agree = found.length > 0 && found.every((f) => f.length === 1 && f[0] === first[0]);
  return agree ? [first[0]] : undefined;
}

/**
 * The one scalar member named as an identifier (`custId`, not a `status` or a `location` the
 * server also fills in) every answer holds and the create's JSON body does not take.
 */
function serverMade(
  doc: unknown,
  producer: OpenApiOperation,
  answers: readonly unknown[],
): string[] | undefined {
  const media = jsonBodyMedia(doc, producer.node);
  const sent = new Set(properties(doc, isNode(media) ? media.schema : undefined).map(([n]) => n));
  if (sent.size === 0 || answers.length === 0) return undefined;
  const left = answers.map((a) =>
    properties(doc, a).filter(([n, p]) =>
      !sent.has(n) && IDENTIFIER.test(n) && ["string", "integer", "number"].includes(String(p.type))
    ).map(([n]) => n)
  );
  const [first] = left;
  const agree = left.every((l) => l.length === 1 && l[0] === first[0]);
  return agree && first.length === 1 ? [first[0]] : undefined;
}

/**
 * The names the items of `template`'s collection (`/users` of `/users/{id}`
 * and of `/users`) are addressed by across the document's paths: their keys,
 * which an update of the item leaves as they are (LoopBack's PostgreSQL
 * connector leaves the key out of the SET, and an update of it alone is one
 * of nothing: 500).
 *
 * @example
 * ```ts
 * import { itemKeys } from "./item_key.ts";
 * const doc = { paths: { "/users/{id}": {}, "/users/{email}/notes": {} } };
 * if ([...itemKeys(doc, "/users/{id}")].join() !== "id,email") throw new Error();
 * ```
 */
export function itemKeys(doc: unknown, template: string): ReadonlySet<string> {
  if (!isNode(doc)) return new Set();
  // Once per document: asked for every update, it would be quadratic in a large one.
  let names = NAMES.get(doc);
  if (!names) {
    const paths = isNode(doc.paths) ? Object.keys(doc.paths) : [];
    names = itemNames(paths.map((t) => ({ template: t })), doc);
    NAMES.set(doc, names);
  }
  const collection = template.replace(/\/$/, "").replace(/\/\{[^}/]+\}$/, "");
  return names.get(collection) ?? new Set();
}

const NAMES = new WeakMap<object, Map<string, Set<string>>>();
