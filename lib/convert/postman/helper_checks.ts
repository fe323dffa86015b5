/**
 * Checks a request makes through a helper a script defines: a collection (or
 * folder) pre-request script may define `v = { status(code) { pm.test(…) } }`
 * and each request's test script only call `v.status(200)`. Newman runs those
 * checks (one sandbox holds both scripts); the translator sees a call and no
 * assertion, so the summary said the request checked nothing. Each call of a
 * helper whose definition holds an assertion counts as one untranslated check,
 * named for the summary.
 *
 * @module
 */
import type { PmScript } from "./model.ts";
import { type Node, parseScript } from "./script/parse.ts";
import { countAssertions } from "./script/untranslated.ts";

/** The helper calls of a request's test scripts that hold checks flowrun does not translate. */
export interface HelperChecks {
  /** How many such calls its test scripts make. */
  calls: number;
  /** The callees as written (`v.status`), each once. */
  names: string[];
}

/**
 * The calls of `scripts`' test scripts (the request's own and those it
 * inherits) to a helper that any of `scripts` defines at its top level with an
 * assertion inside.
 *
 * @example
 * ```ts
 * import { helperChecks } from "./helper_checks.ts";
 * const h = helperChecks([
 *   { listen: "prerequest", owner: "collection", source: "v = { ok() { pm.expect(pm.response.code).to.equal(200); } };" },
 *   { listen: "test", owner: "Login", source: "v.ok(); console.log(1);" },
 * ]);
 * if (h.calls !== 1 || h.names[0] !== "v.ok") throw new Error(JSON.stringify(h));
 * ```
 */
export function helperChecks(scripts: readonly PmScript[]): HelperChecks {
  return helperCalls(scripts, "test", (text) => countAssertions(text) > 0);
}

/**
 * The calls `listen` scripts among `scripts` make to a helper that any of
 * `scripts` defines at its top level with a definition `holds` accepts, and
 * the calls `direct` accepts of their own (outside their definitions).
 *
 * @example
 * ```ts
 * import { helperCalls } from "./helper_checks.ts";
 * const h = helperCalls([
 *   { listen: "prerequest", owner: "collection", source: "u = { go() { pm.request.url.update('x'); } }; u.go();" },
 * ], "prerequest", (text) => text.includes("pm.request"));
 * if (h.calls !== 1 || h.names[0] !== "u.go") throw new Error(JSON.stringify(h));
 * ```
 */
export function helperCalls(
  scripts: readonly PmScript[],
  listen: PmScript["listen"],
  holds: (definition: string) => boolean,
  direct: (callee: string) => boolean = () => false,
): HelperChecks {
  const parsed = scripts.map((s) => ({ s, p: parseScript(s.source) }));
  const helpers = new Set<string>();
  for (const { s, p } of parsed) {
    if (!p.ok) continue;
    for (const [name, node] of definitions(p.program)) {
      const text = (n: Node) => s.source.slice(n.start, n.end);
      if (node.type !== "ObjectExpression") {
        if (holds(text(node))) helpers.add(name);
        continue;
      }
      for (const m of heldMethods(node, text, holds)) helpers.add(`${name}.${m}`);
    }
  }
  const out: HelperChecks = { calls: 0, names: [] };
  for (const { s, p } of parsed) {
    if (s.listen !== listen || !p.ok) continue;
    const defined = new Set(definitions(p.program).map(([, n]) => n));
    visit(p.program, defined, (call) => {
      const text = s.source.slice(call.callee.start, call.callee.end);
      const name = calleeName(call.callee, helpers) ?? (direct(text) ? text : undefined);
      if (name === undefined) return;
      out.calls++;
      if (!out.names.includes(name)) out.names.push(name);
    });
  }
  return out;
}

/** The top-level definitions of a program: `x = …`, `const x = …`, `function x() {}`. */
function definitions(program: Node): [string, Node][] {
  const out: [string, Node][] = [];
  for (const st of program.body as Node[]) {
    if (st.type === "FunctionDeclaration" && st.id) out.push([st.id.name, st]);
    if (st.type === "VariableDeclaration") {
      for (const d of st.declarations as Node[]) {
        if (d.id.type === "Identifier" && d.init) out.push([d.id.name, d.init]);
      }
    }
    const e = st.type === "ExpressionStatement" ? st.expression : undefined;
    if (e?.type === "AssignmentExpression" && e.left.type === "Identifier") {
      out.push([e.left.name, e.right]);
    }
  }
  return out;
}

/**
 * The methods of an object literal `holds` accepts, or that call such a method
 * of the same object (`readPost() { this.url(…) }`), to a fixed point.
 */
function heldMethods(
  obj: Node,
  text: (n: Node) => string,
  holds: (t: string) => boolean,
): Set<string> {
  const methods = new Map<string, string>();
  for (const prop of obj.properties as Node[]) {
    if (prop.type === "Property" && !prop.computed && prop.key.type === "Identifier") {
      methods.set(prop.key.name, text(prop.value));
    }
  }
  const held = new Set([...methods].filter(([, t]) => holds(t)).map(([m]) => m));
  for (let grew = true; grew;) {
    grew = false;
    for (const [m, t] of methods) {
      if (held.has(m) || ![...held].some((h) => t.includes(`this.${h}(`))) continue;
      held.add(m);
      grew = true;
    }
  }
  return held;
}

/** `v.status` or `check` when the callee is a helper, or a member of one. */
function calleeName(callee: Node, helpers: Set<string>): string | undefined {
  if (callee.type === "Identifier") return helpers.has(callee.name) ? callee.name : undefined;
  if (
    callee.type !== "MemberExpression" || callee.object.type !== "Identifier" || callee.computed ||
    callee.property.type !== "Identifier"
  ) return undefined;
  const name = `${callee.object.name}.${callee.property.name}`;
  return helpers.has(name) || helpers.has(callee.object.name) ? name : undefined;
}

/** Each call under `node`, outside the script's own definitions (their calls run only when called). */
function visit(node: Node, skip: Set<Node>, each: (call: Node) => void): void {
  if (skip.has(node)) return;
  if (node.type === "CallExpression") each(node);
  for (const value of Object.values(node)) {
    const children = Array.isArray(value) ? value : [value];
    for (const c of children) {
      if (c && typeof c === "object" && typeof c.type === "string") visit(c, skip, each);
    }
  }
}
