/**
 * `list.find(x => x.kind === "b")` and `list.filter(…)[0]` on a response
 * list, as scripts pick one element to chain its id: a JSONPath filter
 * (`$.json.items[?@.kind == 'b']`) whose first match is the value, which a
 * capture says with `first: true`. Only a predicate of equalities on the
 * element's members against literals or variables (joined by `&&`) is read;
 * anything else is not translated.
 *
 * @module
 */
import type { Node } from "./parse.ts";
import { flowText, member, type Sym } from "./sym.ts";
import { mapCall, returned } from "./mapped.ts";
import { filterLiteral } from "./none_equal.ts";

/** The element's members a predicate reads: `x.a.b` → `@.a.b`; undefined when not rooted at `param`. */
function elementPath(node: Node, param: string): string | undefined {
  if (node.type === "Identifier") return node.name === param ? "@" : undefined;
  if (node.type !== "MemberExpression") return undefined;
  const base = elementPath(node.object, param);
  const key = node.computed
    ? (node.property.type === "Literal" ? node.property.value : undefined)
    : node.property.name;
  if (base === undefined || (typeof key !== "string" && typeof key !== "number")) return undefined;
  return member(base, key);
}

/** A literal as JSONPath writes it: a string single-quoted, a number, true, false or null. */
function literal(node: Node): string | undefined {
  if (node.type !== "Literal" || node.regex) return undefined;
  const v = node.value;
  if (typeof v === "string") return `'${v.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return typeof v === "boolean" || v === null ? String(v) : undefined;
}

/**
 * `x.code === code`: a name the script (or a helper's parameter) holds a known literal in; or a
 * variable: quoted where the script made it text (`String(id)`), else one a script set from a
 * response (`${steps.…}`, which keeps its JSON type in a flow as in Newman), unquoted in the
 * filter so that it is read as the literal its value is (expressions.md). A variable an
 * environment gives is text in Newman, which `===` never finds equal to a number: not read.
 */
function knownLiteral(node: Node, value?: (node: Node) => Sym | undefined): string | undefined {
  const known = node.type === "Identifier" || node.type === "CallExpression"
    ? value?.(node)
    : undefined;
  if (known?.k === "var" && known.text) return `'${known.expr}'`;
  if (known?.k === "var") return known.expr.startsWith("${steps.") ? known.expr : undefined;
  return known?.k === "lit" ? literal({ ...node, type: "Literal", value: known.value }) : undefined;
}

/** `x.k === "lit"` (either way round), or several joined by `&&`, as a JSONPath filter expression. */
function predicate(
  node: Node,
  param: string,
  value?: (node: Node) => Sym | undefined,
): string | undefined {
  if (node.type === "LogicalExpression" && node.operator === "&&") {
    const [a, b] = [predicate(node.left, param, value), predicate(node.right, param, value)];
    return a && b ? `${a} && ${b}` : undefined;
  }
  if (node.type !== "BinaryExpression" || !["===", "=="].includes(node.operator)) return undefined;
  const leftAt = elementPath(node.left, param);
  const left = leftAt ?? elementPath(node.right, param);
  const other = leftAt === undefined ? node.left : node.right;
  const right = literal(node.right) ?? literal(node.left) ?? knownLiteral(other, value);
  return left && left !== "@" && right ? `${left} == ${right}` : undefined;
}

/** `{ kind: "b", n: 2 }` (lodash's matches shorthand) as `@.kind == 'b' && @.n == 2`. */
function matcher(node: Node): string | undefined {
  const parts: string[] = [];
  for (const p of node.properties) {
    if (p.type !== "Property" || p.computed || p.kind !== "init") return undefined;
    const key = p.key.type === "Identifier" ? p.key.name : p.key.value;
    const value = literal(p.value);
    if ((typeof key !== "string" && typeof key !== "number") || value === undefined) {
      return undefined;
    }
    parts.push(`${member("@", key)} == ${value}`);
  }
  return parts.length > 0 ? parts.join(" && ") : undefined;
}

/**
 * `path.find(fn)` → the first element `fn` accepts (`{k: "pick"}`);
 * `path.filter(fn)` → the elements it accepts (`{k: "pick", list: true}`,
 * whose `[0]` is the first); undefined for another method or predicate.
 *
 * @example
 * ```ts
 * import { pickCall } from "./pick.ts";
 * import { parseScript } from "./parse.ts";
 * const parsed = parseScript("x.find(e => e.kind === 'b' && 2 == e.n)");
 * if (!parsed.ok) throw new Error();
 * const call = parsed.program.body[0].expression;
 * const out = pickCall("find", "$.json.items", call.arguments[0]);
 * if (out?.k !== "pick" || out.path !== "$.json.items[?@.kind == 'b' && @.n == 2]") throw new Error(JSON.stringify(out));
 * ```
 */
export function pickCall(
  method: string,
  path: string,
  fn: Node | undefined,
  lodash = false,
  value?: (node: Node) => Sym | undefined,
): Sym | undefined {
  if (method === "some" && value) return someCall(path, fn, value);
  if (method === "map") return mapCall(path, fn);
  if (method !== "find" && method !== "filter") return undefined;
  const f = returned(fn);
  // Lodash's `_.find(list, { kind: "b" })` matches the object's members; a native find needs a function.
  const filter = f
    ? predicate(f.body, f.param, value)
    : lodash && fn?.type === "ObjectExpression"
    ? matcher(fn)
    : undefined;
  if (!filter) return undefined;
  const picked = `${path}[?${filter}]`;
  return method === "find" ? { k: "pick", path: picked } : { k: "pick", path: picked, list: true };
}

/**
 * `list.some(x => x.k === v)`: some element's `k` is `v`, so the list of every element's `k`
 * contains it (a flow's `contains` on a list is deep-equality with an element). `v` is a literal
 * or what `value` makes of it (a variable). Several such equalities joined by `&&` must hold on
 * one element: a filter of them selects something (none_equal.ts), each `v` known now. A loose
 * `==` or another predicate is not read.
 */
function someCall(
  path: string,
  fn: Node | undefined,
  value: (node: Node) => Sym | undefined,
): Sym | undefined {
  const f = returned(fn);
  const parts = f && strictEqualities(f.body, f.param, value);
  if (!parts) return undefined;
  if (parts.length > 1) {
    const filter = parts.map(([at, v]) => {
      const lit = v.k === "lit" ? filterLiteral(v.value) : undefined;
      return lit === undefined ? undefined : `${at} == ${lit}`;
    });
    if (filter.includes(undefined)) return undefined;
    return {
      k: "cond",
      conds: [{ path: `${path}[?${filter.join(" && ")}]`, op: "exists", value: true }],
    };
  }
  const [[at, other]] = parts;
  const expected = other.k === "lit" && other.value !== undefined
    ? flowText(other.value)
    : other.k === "var"
    ? other.expr
    : undefined;
  if (expected === undefined) return undefined;
  return {
    k: "cond",
    conds: [{ path: `${path}[*]${at.slice(1)}`, op: "contains", value: expected }],
  };
}

/** `x.a === v && v2 === x.b`: each element member (`@.a`) with what `value` makes of its other side. */
function strictEqualities(
  node: Node,
  param: string,
  value: (node: Node) => Sym | undefined,
): [string, Sym][] | undefined {
  if (node.type === "LogicalExpression" && node.operator === "&&") {
    const [a, b] = [
      strictEqualities(node.left, param, value),
      strictEqualities(node.right, param, value),
    ];
    return a && b ? [...a, ...b] : undefined;
  }
  if (node.type !== "BinaryExpression" || node.operator !== "===") return undefined;
  const leftAt = elementPath(node.left, param);
  const at = leftAt ?? elementPath(node.right, param);
  const other = value(leftAt === undefined ? node.left : node.right);
  return at === undefined || at === "@" || !other ? undefined : [[at, other]];
}

/**
 * A member of a pick: `filter(…)[0]` is the first match, and a member of
 * the first match (`find(…).id`) is that member of it.
 *
 * @example
 * ```ts
 * import { pickMember } from "./pick.ts";
 * const first = pickMember({ k: "pick", path: "$.a[?@.k == 1]", list: true }, 0);
 * if (first?.k !== "pick" || first.list || pickMember(first, "id")?.path !== "$.a[?@.k == 1].id") throw new Error();
 * ```
 */
export function pickMember(
  pick: { k: "pick"; path: string; list?: boolean } | { k: "mapped"; path: string; at: string },
  key: unknown,
): (Sym & { path: string }) | undefined {
  // A mapped list has one element for each of the list's: its length is the list's (mapped.ts).
  if (pick.k === "mapped") return key === "length" ? { ...pick, length: true } : undefined;
  // Only the first match is a value a flow can hold: the list's length or later elements are not.
  if (pick.list) return key === 0 ? { k: "pick", path: pick.path } : undefined;
  return typeof key === "string" || typeof key === "number"
    ? { k: "pick", path: member(pick.path, key) }
    : undefined;
}

/**
 * Whether `s` is a pick or a mapped list, whose members {@linkcode pickMember} reads.
 *
 * @example
 * ```ts
 * import { isPick } from "./pick.ts";
 * if (!isPick({ k: "mapped", path: "$.json", at: "@.id" }) || isPick({ k: "path", path: "$" })) throw new Error();
 * ```
 */
export const isPick = (s: Sym | undefined): s is Extract<Sym, { k: "pick" | "mapped" }> =>
  s?.k === "pick" || s?.k === "mapped";
