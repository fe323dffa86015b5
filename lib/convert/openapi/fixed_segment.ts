/**
 * A path parameter whose schema allows exactly one value (`enum` of one, or
 * `const`) is that segment, spelled once. Sails' blueprint generator
 * documents an association's routes so (`PUT
 * /room/{_id}/{association}/{childid}`, `association` of `enum:
 * [messages]`): read as a parameter, it was linked to the room's create
 * like any other and sent the room's id (404), and the child after it read
 * the room too. As the segment `messages` it is sent as the document says,
 * and what follows it is an item of that collection (`POST /message`'s).
 * Only what a URL path holds as it is (letters, digits, `-._~`); a list of
 * several values is a choice, left to the parameter's own rules. The path's
 * last parameter stays one, its value the document's and linked to no
 * producer: it still names the item the path addresses (Azure's `PUT
 * …/policies/{policyId}`, `enum: [policy]`, creates the item it names).
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { deref } from "./examples.ts";

const PLAIN = /^[A-Za-z0-9._~-]+$/;

/** The one value a path parameter's schema allows, as a segment; else undefined. */
function onlyValue(doc: Node, p: Node): string | undefined {
  if (p.in !== "path") return undefined;
  const schema = deref(doc, p.schema);
  if (!isNode(schema)) return undefined;
  const values = Object.hasOwn(schema, "const")
    ? [schema.const]
    : Array.isArray(schema.enum)
    ? schema.enum
    : [];
  const [value] = values;
  const text = typeof value === "number" ? String(value) : value;
  return values.length === 1 && typeof text === "string" && PLAIN.test(text) ? text : undefined;
}

/**
 * `template` with each path parameter of `params` allowed one value written
 * as that value, but the last segment, and the parameters left.
 *
 * @example
 * ```ts
 * import { fixedSegments } from "./fixed_segment.ts";
 * const params = [
 *   { in: "path", name: "id", schema: { type: "string" } },
 *   { in: "path", name: "association", schema: { enum: ["messages"] } },
 * ];
 * const got = fixedSegments({}, "/room/{id}/{association}", params);
 * if (got.template !== "/room/{id}/{association}" || got.params.length !== 2) throw new Error();
 * const child = { in: "path", name: "childid", schema: { type: "string" } };
 * const under = fixedSegments({}, "/room/{id}/{association}/{childid}", [...params, child]);
 * if (under.template !== "/room/{id}/messages/{childid}" || under.params.length !== 2) throw new Error();
 * ```
 */
export function fixedSegments(
  doc: Node,
  template: string,
  params: Node[],
): { template: string; params: Node[] } {
  let out = template;
  const last = template.replace(/\/$/, "").split("/").at(-1);
  const left = params.filter((p) => {
    const value = onlyValue(doc, p);
    const place = `{${String(p.name)}}`;
    if (value === undefined || !out.includes(place) || last === place) return true;
    out = out.replaceAll(place, value);
    return false;
  });
  return { template: out, params: left };
}

/**
 * The parameters of `op`'s path, in order, but those allowed one value:
 * the ones a producer may make.
 *
 * @example
 * ```ts
 * import { madeParams } from "./fixed_segment.ts";
 * const params = [{ in: "path", name: "kind", schema: { enum: ["policy"] } }];
 * const op = { template: "/apis/{id}/policies/{kind}", params };
 * if (madeParams({}, op).join() !== "id") throw new Error();
 * ```
 */
export function madeParams(doc: Node, op: { template: string; params: Node[] }): string[] {
  const fixed = new Set(
    op.params.filter((p) => onlyValue(doc, p) !== undefined).map((p) => String(p.name)),
  );
  return [...op.template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]).filter((p) => !fixed.has(p));
}

/**
 * The document's path of an operation: its own key in `paths`, which `template` may write a
 * one-value parameter of as that value (`operationsOf` keeps the key as `path` then).
 *
 * @example
 * ```ts
 * import { documentPath } from "./fixed_segment.ts";
 * if (documentPath({ template: "/room/{id}/messages/{c}", path: "/room/{id}/{a}/{c}" }) !== "/room/{id}/{a}/{c}") {
 *   throw new Error();
 * }
 * if (documentPath({ template: "/pets" }) !== "/pets") throw new Error();
 * ```
 */
export function documentPath(op: { template: string; path?: string }): string {
  return op.path ?? op.template;
}
