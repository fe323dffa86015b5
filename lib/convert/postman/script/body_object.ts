/**
 * A script's read of its own JSON body when the body holds Postman variables:
 * `pm.environment.set("who", pm.request.body.json().username)` after sending
 * `{"username": "{{testUsername}}"}`. Postman gives the body as sent, each `{{x}}` resolved, so
 * the field is the variable's value, which a flow reads as the request did. The body is read as
 * the object literal a script could have written (`{ username: pm.variables.get("testUsername")
 * }`), whose members object_member.ts already reads one at a time; a body that is no JSON with
 * the variables only inside its strings is not read.
 *
 * @module
 */
import type { Node } from "./parse.ts";

/** A node made here, not parsed: it spans no text of the script. */
const made = (type: string, fields: Record<string, unknown>): Node => ({
  type,
  start: 0,
  end: 0,
  ...fields,
});
const literal = (value: unknown): Node => made("Literal", { value });

/** `pm.variables.get("x")`: what `{{x}}` resolves to, by Postman's scopes. */
function variableRead(name: string): Node {
  const member = (object: Node, name: string): Node =>
    made("MemberExpression", { computed: false, object, property: made("Identifier", { name }) });
  const get = member(member(made("Identifier", { name: "pm" }), "variables"), "get");
  return made("CallExpression", { callee: get, arguments: [literal(name)] });
}

/** Text with `{{x}}` in it as literal parts and variable reads joined by `+`. */
function textNode(text: string): Node {
  const parts = text.split(/\{\{([^{}]+)\}\}/).flatMap((piece, i) =>
    i % 2 === 1 ? [variableRead(piece.trim())] : piece === "" ? [] : [literal(piece)]
  );
  if (parts.length === 0) return literal("");
  // A lone variable is its value as it is; one joined with text is text, as Postman's is.
  return parts.reduce((left, right) => made("BinaryExpression", { operator: "+", left, right }));
}

function valueNode(value: unknown): Node {
  if (typeof value === "string") return value.includes("{{") ? textNode(value) : literal(value);
  if (Array.isArray(value)) return made("ArrayExpression", { elements: value.map(valueNode) });
  if (value === null || typeof value !== "object") return literal(value);
  const properties = Object.entries(value).map(([key, v]) =>
    made("Property", { kind: "init", computed: false, key: literal(key), value: valueNode(v) })
  );
  return made("ObjectExpression", { properties });
}

/**
 * The JSON body `raw` as an object literal whose `{{x}}` are `pm.variables.get("x")`; undefined
 * when it holds no variable (read as a literal elsewhere), is not JSON, or is no object.
 *
 * @example
 * ```ts
 * import { bodyObject } from "./body_object.ts";
 * const o = bodyObject('{"user": {"name": "{{who}}"}, "n": 2}');
 * if (o?.type !== "ObjectExpression" || o.properties[0].value.type !== "ObjectExpression") throw new Error();
 * if (bodyObject('{"n": {{n}}}') !== undefined || bodyObject('{"n": 2}') !== undefined) throw new Error();
 * ```
 */
export function bodyObject(raw: string | undefined): Node | undefined {
  if (!raw?.includes("{{")) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const object = value !== null && typeof value === "object" && !Array.isArray(value);
  return object ? valueNode(value) : undefined;
}

/** `a.b.c` as its dotted name, or undefined for anything but plain names. */
function dottedName(node: Node): string | undefined {
  if (node.type === "Identifier") return node.name;
  if (node.type !== "MemberExpression" || node.computed) return undefined;
  const base = dottedName(node.object);
  return base && `${base}.${node.property.name}`;
}

/**
 * Whether `node` reads the request's own body parsed: `pm.request.body.json()` or
 * `JSON.parse(pm.request.body.raw)`.
 *
 * @example
 * ```ts
 * import { readsOwnBody } from "./body_object.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("JSON.parse(pm.request.body.raw); pm.request.body.json(); JSON.parse(x)");
 * if (!p.ok) throw new Error();
 * const [a, b, c] = p.program.body.map((s: { expression: unknown }) => s.expression);
 * if (!readsOwnBody(a) || !readsOwnBody(b) || readsOwnBody(c)) throw new Error();
 * ```
 */
export function readsOwnBody(node: Node | undefined): boolean {
  if (node?.type !== "CallExpression") return false;
  const callee = dottedName(node.callee);
  if (callee === "pm.request.body.json") return node.arguments.length === 0;
  return callee === "JSON.parse" && node.arguments.length === 1 &&
    dottedName(node.arguments[0]) === "pm.request.body.raw";
}

/**
 * The object a `const` holds for member reads: an object literal, or the request's own body
 * (`ownBody`, {@linkcode bodyObject}) when the declaration parses it; undefined for anything else.
 *
 * @example
 * ```ts
 * import { heldObject } from "./body_object.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("JSON.parse(pm.request.body.raw)");
 * if (!p.ok) throw new Error();
 * const own = { type: "ObjectExpression", start: 0, end: 0, properties: [] };
 * if (heldObject(p.program.body[0].expression, own) !== own || heldObject(undefined, own)) throw new Error();
 * ```
 */
export function heldObject(init: Node | undefined, ownBody: Node | undefined): Node | undefined {
  if (init?.type === "ObjectExpression") return init;
  return readsOwnBody(init) ? ownBody : undefined;
}
