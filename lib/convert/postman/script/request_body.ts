/**
 * A body a pre-request script writes into its own request, as collections
 * build a create's body with values they keep for later checks:
 * `pm.request.body.raw = JSON.stringify({ firstname: name, totalprice: 111 })`,
 * `pm.request.body.update(JSON.stringify(body))` and
 * `pm.request.body.update({ mode: "raw", raw: …, options: … })` (itself or a `const` holding it). Newman sends what the
 * script wrote, not the collection's body; when that text is known now or is
 * made of Postman variables (side_request.ts's `rawText`), the step sends it.
 * A `const` holding the object is read from its declaration when nothing
 * changes it later (`body.x = …`). Anything else stays a comment, and the
 * summary names the request as one sent as the collection holds it.
 *
 * @module
 */
import { dotted, type EvalContext } from "./eval.ts";
import { type Node, parseScript } from "./parse.ts";
import { rawText } from "./side_request.ts";

/** The body a script writes: Postman text, and whether `JSON.stringify` wrote it. */
export interface WrittenBody {
  raw: string;
  stringified?: true;
}

/**
 * The body `e` writes into the request; `undefined` when it is one that
 * cannot be said; `null` when `e` writes none. `source` is the script `e`
 * is in, where a `const` the body is written from is declared.
 *
 * @example
 * ```ts
 * import { writtenBody } from "./request_body.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript('pm.request.body.raw = JSON.stringify({ a: "x", b: pm.environment.get("b") })');
 * if (!p.ok) throw new Error(p.why);
 * const ctx = { scope: new Map(), tests: new Map(), variable: (n: string) => ({ k: "var" as const, name: n, expr: "" }) };
 * const body = writtenBody(p.program.body[0].expression, ctx, "");
 * if (body?.raw !== '{"a":"x","b":"{{b}}"}' || !body.stringified) throw new Error(JSON.stringify(body));
 * ```
 */
export function writtenBody(
  e: Node,
  ctx: EvalContext,
  source: string,
): WrittenBody | undefined | null {
  // A `const body = { … }` the script never changes, read as its literal (parsed only for a write).
  let parsed: ReturnType<typeof parseScript> | undefined;
  const declared = (n: Node | undefined) => {
    if (n?.type !== "Identifier") return undefined;
    parsed ??= parseScript(source);
    return parsed.ok ? declaredObject(parsed.program, source, n.name) : undefined;
  };
  const value = bodyNode(e, declared);
  if (value === null) return null;
  if (value === undefined) return undefined;
  const stringify = value.type === "CallExpression" && dotted(value.callee) === "JSON.stringify";
  const init = stringify ? declared(value.arguments[0]) : undefined;
  const node = init ? { ...value, arguments: [init, ...value.arguments.slice(1)] } : value;
  const raw = rawText(node, ctx);
  if (raw === undefined) return undefined;
  return stringify ? { raw, stringified: true } : { raw };
}

/** The value written as the body by `e`; `undefined` for a write of another kind, `null` for none. */
function bodyNode(e: Node, declared: (n: Node) => Node | undefined): Node | undefined | null {
  if (e.type === "AssignmentExpression") {
    if (dotted(e.left) !== "pm.request.body.raw") return null;
    return e.operator === "=" ? e.right : undefined;
  }
  if (e.type !== "CallExpression" || dotted(e.callee) !== "pm.request.body.update") return null;
  // `pm.request.body.update(body)` of `const body = { mode: "raw", raw: …, options: … }`.
  const arg = declared(e.arguments[0]) ?? e.arguments[0];
  if (arg?.type !== "ObjectExpression") return arg;
  const part = (name: string) =>
    arg.properties.find((p: Node) =>
      p.type === "Property" && !p.computed && (p.key.name ?? p.key.value) === name
    )?.value;
  const mode = part("mode");
  if (mode?.type !== "Literal" || mode.value !== "raw" || arg.properties.length > 3) {
    return undefined;
  }
  return part("raw");
}

/**
 * The object literal a `const`/`let`/`var` of `source` starts `name` at,
 * when the script never assigns it or a member of it afterwards.
 *
 * @example
 * ```ts
 * import { declaredObject } from "./request_body.ts";
 * import { parseScript } from "./parse.ts";
 * const source = "const b = { a: 1 }; pm.request.body.raw = JSON.stringify(b);";
 * const p = parseScript(source);
 * if (!p.ok) throw new Error(p.why);
 * if (declaredObject(p.program, source, "b")?.type !== "ObjectExpression") throw new Error();
 * if (declaredObject(p.program, source + " b.a = 2;", "b") !== undefined) throw new Error();
 * ```
 */
export function declaredObject(program: Node, source: string, name: string): Node | undefined {
  const inits = (program.body as Node[])
    .filter((st) => st.type === "VariableDeclaration")
    .flatMap((st) => st.declarations as Node[])
    .filter((d) => d.id?.type === "Identifier" && d.id.name === name);
  if (inits.length !== 1 || inits[0].init?.type !== "ObjectExpression") return undefined;
  const word = name.replace(/[$]/g, "\\$");
  const changed = new RegExp(`(?<![\\w$.])${word}\\s*(?:(?:\\.[\\w$]+|\\[[^\\]]*\\])+\\s*)?=(?!=)`);
  const after = source.slice(inits[0].end);
  return changed.test(after) ? undefined : inits[0].init;
}
