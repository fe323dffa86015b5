/**
 * A path parameter named for another collection whose create names its
 * items in its body: LemonLDAP::NG's Manager API files menu applications
 * under `/api/v1/menu/app/{cat}`, where `{cat}` is a menu category, an item
 * of `/api/v1/menu/cat`, made by `POST /api/v1/menu/cat {confKey, catname}`
 * (answered `{"message": …}`) and addressed as `/api/v1/menu/cat/{confKey}`.
 * The POST to `/api/v1/menu/app/{cat}` looked like a create at a URL the
 * client names, so the run named a category of its own that nothing made,
 * and the applications' create, listing and search each answered 400 or
 * 404 (7 operations). The evidence is the document's: the parameter is the
 * noun of another collection (`cat` of `/menu/cat`, `category` of
 * `/categories`), and that collection's create names its items in its body
 * (`body_names.ts`), so the value is that create's own name: the var its
 * body sends, the create copied into the flow before the step and guarded
 * by its success (`made_guard.ts`), as for the item's own paths.
 *
 * @module
 */
import type { OpenApiOperation } from "./operations.ts";
import type { ParamLink } from "./document_links.ts";
import { namedInBody } from "./body_names.ts";
import { plainName } from "./required_props.ts";
import { singular } from "../names.ts";

/** A name as the noun of a collection: `cat`, `cats`, `Categories` → `cat`, `cat`, `category`. */
function noun(name: string): string {
  return plainName(singular(name));
}

/**
 * The link of `param` of `op` to the create of the collection it is named
 * for, when that create names its items in its body (see the module): its
 * `path` holds the create's own parameter, whose var the create's body sends.
 *
 * @example
 * ```ts
 * import { namedCollectionLink } from "./named_collection.ts";
 * import { operationsOf } from "./operations.ts";
 * const body = { content: { "application/json": { schema: { properties: { confKey: { type: "string" } } } } } };
 * const doc = { paths: {
 *   "/menu/cat": { post: { requestBody: body, responses: { "201": { description: "" } } } },
 *   "/menu/cat/{confKey}": { get: {} },
 *   "/menu/app/{cat}": { get: {} },
 * } };
 * const ops = operationsOf(doc);
 * const link = namedCollectionLink(doc, ops, ops[2], "cat");
 * if (link?.producer !== ops[0] || link.path.join() !== "confKey" || link.from !== "client") {
 *   throw new Error(JSON.stringify(link));
 * }
 * if (namedCollectionLink(doc, ops, ops[1], "confKey") !== undefined) throw new Error();
 * ```
 */
export function namedCollectionLink(
  doc: unknown,
  ops: readonly OpenApiOperation[],
  op: OpenApiOperation,
  param: string,
): ParamLink | undefined {
  const at = op.template.indexOf(`/{${param}}`);
  const before = at < 0 ? "" : op.template.slice(0, at).split("/").at(-1) ?? "";
  const own = noun(param);
  // Under its own collection (`/cats/{cat}`) the parameter is that collection's item, as any is.
  if (before === "" || before.startsWith("{") || own === "" || noun(before) === own) {
    return undefined;
  }
  for (const create of createsByNoun(ops).get(own) ?? []) {
    if (create === op) continue;
    const [key] = namedInBody(doc, create).keys();
    if (key !== undefined) return { param, producer: create, path: [key], from: "client" };
  }
  return undefined;
}

/** Each document's operations' POSTs to a collection of no parameter, by its noun, read once. */
const byNounOf = new WeakMap<readonly OpenApiOperation[], Map<string, OpenApiOperation[]>>();

/** The POSTs among `ops` to a path of no parameter (`/menu/cat`), by their collection's noun. */
function createsByNoun(ops: readonly OpenApiOperation[]): Map<string, OpenApiOperation[]> {
  let index = byNounOf.get(ops);
  if (index) return index;
  index = new Map();
  for (const create of ops) {
    const collection = create.template.replace(/\/$/, "");
    if (create.method !== "POST" || collection.includes("{")) continue;
    const key = noun(collection.split("/").at(-1) ?? "");
    index.set(key, [...index.get(key) ?? [], create]);
  }
  byNounOf.set(ops, index);
  return index;
}
