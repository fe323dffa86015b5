/**
 * An item acted on under a word after its collection's noun: a NestJS
 * products catalog routes `PUT /orders/cancel/{id}` and
 * `PUT /orders/process/{id}` beside `POST /orders` and `DELETE /orders/{id}`.
 * Unlike a verb segment (verb_segments.ts), the word is none the converter
 * knows; what says the parameter is one of the noun's items is the document's
 * shape: no operation is on the word's own path (no listing, no create: no
 * collection there), the action is alone on its path (an item the client
 * names is read or deleted where it is written), and the noun's collection
 * addresses its items by the same parameter (`/orders/{id}`). A parameter of
 * another name is another thing: Superset's `/chart/related/{column_name}`
 * beside `/chart/{pk}` names a column, Compute's `/images/family/{family}`
 * beside `/images/{image}` a family, not an item the create makes. The
 * caller holds the last evidence: that the collection has a create.
 *
 * @module
 */
import { verbItem } from "./verb_segments.ts";

/**
 * The collection whose item `template` (ending `/{noun}/{word}/{param}`, its
 * last segment `param` when given) acts on, by the evidence of `templates`,
 * the document's operations' templates (one per operation), else undefined.
 *
 * @example
 * ```ts
 * import { actionCollection } from "./action_segments.ts";
 * const paths = ["/orders", "/orders", "/orders/{id}", "/orders/cancel/{id}"];
 * if (actionCollection("/orders/cancel/{id}", paths, "id") !== "/orders") throw new Error();
 * // A word with operations of its own is a collection: `/orders/drafts`.
 * const drafts = [...paths, "/orders/drafts", "/orders/drafts/{id}"];
 * if (actionCollection("/orders/drafts/{id}", drafts)) throw new Error();
 * // An item read and written at its own path, and a noun nothing else uses: no evidence.
 * if (actionCollection("/orders/cancel/{id}", [...paths, "/orders/cancel/{id}"])) throw new Error();
 * if (actionCollection("/jobs/cancel/{id}", ["/jobs/cancel/{id}"])) throw new Error();
 * // Items of the collection addressed by another parameter: another thing.
 * const charts = ["/chart", "/chart/{pk}", "/chart/related/{column_name}"];
 * if (actionCollection("/chart/related/{column_name}", charts)) throw new Error();
 * ```
 */
export function actionCollection(
  template: string,
  templates: Iterable<string>,
  param?: string,
): string | undefined {
  const shape = actionShape(template, param);
  if (!shape) return undefined;
  let alone = 0;
  let sameItem = false;
  for (const raw of templates) {
    const path = trim(raw);
    if (path === shape.wordPath) return undefined;
    if (path === shape.path) alone++;
    else if (path === shape.item || path.startsWith(`${shape.item}/`)) sameItem = true;
  }
  return alone === 1 && sameItem ? shape.collection : undefined;
}

const trim = (t: string) => t.replace(/\/$/, "");

/** The paths of a template ending `/{noun}/{word}/{param}`: its own, the word's, the collection's and its item's. */
function actionShape(template: string, param?: string) {
  const path = trim(template);
  const segments = path.split("/");
  const last = segments.length - 1;
  if (last < 3 || !/^\{[^}]+\}$/.test(segments[last])) return undefined;
  if (param !== undefined && segments[last] !== `{${param}}`) return undefined;
  const [noun, word] = [segments[last - 2], segments[last - 1]];
  if (noun === "" || word === "" || noun.startsWith("{") || word.startsWith("{")) return undefined;
  const collection = segments.slice(0, last - 1).join("/");
  return {
    path,
    collection,
    wordPath: `${collection}/${word}`,
    item: `${collection}/${segments[last]}`,
  };
}

/**
 * The collection whose item `param` of `op` is under a word: a verb's
 * (`/post/delete/{id}`, verb_segments.ts), else an action's (above), by `ops`' templates.
 *
 * @example
 * ```ts
 * import { wordedCollection } from "./action_segments.ts";
 * const paths = ["/post", "/post/{id}", "/post/delete/{id}", "/post/like/{id}"];
 * const ops = paths.map((template) => ({ template }));
 * if (wordedCollection(ops[2], ops, "id") !== "/post") throw new Error();
 * if (wordedCollection(ops[3], ops, "id") !== "/post") throw new Error();
 * if (wordedCollection(ops[1], ops, "id")) throw new Error();
 * ```
 */
export function wordedCollection(
  op: { template: string },
  ops: { template: string }[],
  param: string,
): string | undefined {
  return verbItem(op.template, param)?.collection ??
    actionCollection(op.template, ops.map((o) => o.template), param);
}
