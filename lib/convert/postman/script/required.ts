/**
 * Libraries a script takes with `require(…)`, as Newman's sandbox gives them
 * (Newman 6.2.2): `require('uuid')` is a function making a v4 UUID, with
 * `.v4()` too, `require('chai')` is the chai whose `expect` `pm.expect` is,
 * and `require('lodash')` is lodash 4, whose functions the
 * translator reads as the global `_`'s (lodash 3 there; the ones read, such
 * as `random`, `sample`, `get`, mean the same in both). A name a `require`
 * binds (`const uuid = require('uuid')`, `const { v4: uuidv4 } =
 * require('uuid')`, `const lodash = require('lodash')`) and a direct
 * `require('uuid').v4()` are renamed in the parsed script to the library's own
 * name, which no script can write (`require:uuid`, `require:uuid.v4`), the
 * lodash global `_`, `moment`, or `pm` (`chai.expect` is `pm.expect`), so the calls
 * read as the library's wherever the name is used; a name bound otherwise (a
 * script's own `uuid` object) is left alone.
 *
 * @module
 */
import type { Node } from "./parse.ts";

/** What each library's names become; a module not listed keeps its names. */
const MODULES: Record<string, { whole: string; members?: Record<string, string> }> = {
  uuid: { whole: "require:uuid", members: { v4: "require:uuid.v4" } },
  lodash: { whole: "_" },
  // `pm.expect` is chai's `expect`: `chai.expect(x)` and a destructured `expect(x)` are it.
  chai: { whole: "pm", members: { expect: "pm.expect" } },
  // What `require('moment')` gives is moment.js whatever the script calls it (`const clock =
  // require('moment'); clock().format(…)`): the evidence is the `require`, not the name.
  moment: { whole: "moment" },
};
/** Scripts are short: a bound keeps the walk linear whatever they hold. */
const MAX_NODES = 100_000;

/** `require('x')` of a library listed: its name, else undefined. */
function required(n: Node | undefined): string | undefined {
  const call = n?.type === "CallExpression" && n.callee.type === "Identifier" &&
    n.callee.name === "require" && n.arguments.length === 1 &&
    n.arguments[0].type === "Literal";
  const name = call ? String(n!.arguments[0].value) : undefined;
  return name !== undefined && Object.hasOwn(MODULES, name) ? name : undefined;
}

/** Each node under `root`, with the node holding it and the key it is under. */
function* walk(root: Node): Generator<[Node, Node | undefined, string]> {
  const stack: [Node, Node | undefined, string][] = [[root, undefined, ""]];
  for (let seen = 0; stack.length > 0 && seen < MAX_NODES; seen++) {
    const at = stack.pop()!;
    yield at;
    for (const [key, child] of Object.entries(at[0])) {
      for (const c of Array.isArray(child) ? child : [child]) {
        if (c && typeof c === "object" && typeof c.type === "string") stack.push([c, at[0], key]);
      }
    }
  }
}

/** The names `const … = require(…)` binds, and what each becomes. */
function bound(program: Node): Map<string, string> {
  const names = new Map<string, string>();
  for (const [n] of walk(program)) {
    const lib = n.type === "VariableDeclarator" ? required(n.init) : undefined;
    if (!lib) continue;
    if (n.id.type === "Identifier") names.set(n.id.name, MODULES[lib].whole);
    if (n.id.type !== "ObjectPattern") continue;
    for (const p of n.id.properties) {
      const to = p.key?.type === "Identifier" ? MODULES[lib].members?.[p.key.name] : undefined;
      if (to && !p.computed && p.value?.type === "Identifier") names.set(p.value.name, to);
    }
  }
  return names;
}

/** Whether an identifier under `key` of `parent` names a variable (not a member or a key). */
function isReference(parent: Node | undefined, key: string): boolean {
  if (!parent) return true;
  if (parent.type === "MemberExpression" && key === "property") return parent.computed;
  if (parent.type === "Property" && key === "key") return parent.computed;
  return !(parent.type === "VariableDeclarator" && key === "id");
}

/** `const { v4: uuidv4 } = require('uuid')` alone: nothing left to translate once renamed. */
function onlyTakesMembers(n: Node): boolean {
  return n.type === "VariableDeclaration" &&
    n.declarations.every((d: Node) =>
      d.id.type === "ObjectPattern" && required(d.init) !== undefined
    );
}

/** `n` (an identifier) as `to`: a name, or a member of a name (`pm.expect`) built in its place. */
function renamed(n: Node, to: string): void {
  const [object, property] = to.startsWith("pm.") ? to.split(".") : [];
  if (!property) return void (n.name = to);
  const at = { start: n.start, end: n.end };
  delete n.name;
  Object.assign(n, {
    type: "MemberExpression",
    computed: false,
    object: { type: "Identifier", name: object, ...at },
    property: { type: "Identifier", name: property, ...at },
  });
}

/**
 * Renames, in place, what `require(…)` of a library listed binds in `program`
 * to the library's own name, and gives `program` back; a declaration that
 * only takes a library's members becomes an empty statement.
 *
 * @example
 * ```ts
 * import { renameRequired } from "./required.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("const { v4: uuidv4 } = require('uuid'); set(uuidv4(), require('uuid').v4());");
 * if (!p.ok) throw new Error();
 * const program = renameRequired(p.program);
 * const call = program.body[1].expression;
 * if (program.body[0].type !== "EmptyStatement") throw new Error();
 * if (call.arguments[0].callee.name !== "require:uuid.v4") throw new Error();
 * if (call.arguments[1].callee.object.name !== "require:uuid") throw new Error();
 * ```
 */
export function renameRequired(program: Node): Node {
  const names = bound(program);
  for (const [n, parent, key] of walk(program)) {
    const lib = required(n);
    if (lib && parent?.type === "MemberExpression" && key === "object") {
      parent.object = { type: "Identifier", name: MODULES[lib].whole, start: n.start, end: n.end };
    }
    const to = n.type === "Identifier" ? names.get(n.name) : undefined;
    if (to && isReference(parent, key)) renamed(n, to);
    if (onlyTakesMembers(n)) n.type = "EmptyStatement";
  }
  return program;
}
