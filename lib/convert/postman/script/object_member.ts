/**
 * A member of an object literal a script keeps in a `const`, read back one
 * member at a time, as expected values are gathered before the checks:
 * `const expected = { firstname: pm.collectionVariables.get("fn"), totalprice:
 * parseInt(pm.collectionVariables.get("price")) };
 * pm.expect(json.firstname).to.eql(expected.firstname)`. An object of values
 * all known now is a literal (eval.ts); one holding a variable or a made value
 * is not, so each member read is the member's own expression, evaluated where
 * it is read (nested objects alike). An object the script changes after
 * declaring it (`expected.firstname = …`) is forgotten: its members are no
 * longer what the literal says.
 *
 * @module
 */
import type { Node } from "./parse.ts";
import { readsOwnBody } from "./body_object.ts";

/**
 * What a read needs of eval.ts's context: the object literal each `const` was declared with, and
 * the request's own JSON body as one when it holds variables (body_object.ts).
 */
type Objects = { objects?: Map<string, Node>; ownBody?: Node };

/** The name of a non-computed or literal-keyed member; undefined for any other. */
function keyOf(node: Node): string | undefined {
  if (!node.computed) return node.property.name;
  const p = node.property;
  return p.type === "Literal" && typeof p.value === "string" ? p.value : undefined;
}

/**
 * The expression a member read (`expected.firstname`, `expected.dates.in`)
 * finds in a `const`'s object literal; undefined when it is no such read.
 *
 * @example
 * ```ts
 * import { heldMember } from "./object_member.ts";
 * import { parseScript } from "./parse.ts";
 * const decl = parseScript('const e = { a: { b: pm.environment.get("x") } };');
 * const read = parseScript("e.a.b");
 * if (!decl.ok || !read.ok) throw new Error();
 * const objects = new Map([["e", decl.program.body[0].declarations[0].init]]);
 * const ctx = { objects };
 * if (heldMember(read.program.body[0].expression, ctx)?.type !== "CallExpression") throw new Error();
 * ```
 */
export function heldMember(node: Node, ctx: Objects): Node | undefined {
  if (node.type !== "MemberExpression") return undefined;
  const base = node.object.type === "Identifier"
    ? ctx.objects?.get(node.object.name)
    : readsOwnBody(node.object)
    ? ctx.ownBody
    : heldMember(node.object, ctx);
  const key = keyOf(node);
  if (base?.type !== "ObjectExpression" || key === undefined) return undefined;
  const found = base.properties.find((p: Node) =>
    p.type === "Property" && !p.computed && p.kind === "init" &&
    (p.key.type === "Identifier" ? p.key.name : String(p.key.value)) === key
  );
  return found?.value;
}

/**
 * Forgets the object `target` (the left of an assignment) changes a member
 * of, so no later read takes its literal for what it holds.
 *
 * @example
 * ```ts
 * import { forgetChanged } from "./object_member.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("e.a.b = 1");
 * if (!p.ok) throw new Error();
 * const objects = new Map([["e", p.program]]);
 * forgetChanged(p.program.body[0].expression.left, { objects });
 * if (objects.size !== 0) throw new Error();
 * ```
 */
export function forgetChanged(target: Node, ctx: Objects): void {
  let root = target;
  while (root?.type === "MemberExpression") root = root.object;
  if (root !== target && root?.type === "Identifier") ctx.objects?.delete(root.name);
}
