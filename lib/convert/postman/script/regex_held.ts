/**
 * A regular expression a script keeps in a `const` before it uses it:
 * `const emailRegex = /^[^\s@]+@[^\s@]+$/; pm.expect(json.email).to.match(emailRegex);` or
 * `emailRegex.test(json.email)`. A `const` cannot be given another value, so every use of the
 * name is that literal, and reads as the literal written in its place.
 *
 * @module
 */
import type { Node } from "./parse.ts";

/** What a script keeps: each `const` name declared with a regular expression literal. */
export interface HeldRegexes {
  regexes?: Map<string, Node>;
}

/** A regular expression literal (`/a/i`), as the parser gives it. */
function isRegexLiteral(node: Node | undefined): boolean {
  return node?.type === "Literal" && node.regex !== undefined;
}

/**
 * Notes a declaration: a `const` of a regular expression literal is kept by name; any other
 * declaration of that name (a `let`, another value in a later test's callback) forgets it.
 *
 * @example
 * ```ts
 * import { type HeldRegexes, keepRegex } from "./regex_held.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("const re = /^a/;");
 * if (!p.ok) throw new Error();
 * const decl = p.program.body[0];
 * const ctx: HeldRegexes = {};
 * keepRegex(ctx, decl.kind, decl.declarations[0]);
 * if (ctx.regexes?.get("re")?.regex.pattern !== "^a") throw new Error();
 * keepRegex(ctx, "let", decl.declarations[0]);
 * if (ctx.regexes?.has("re")) throw new Error();
 * ```
 */
export function keepRegex(ctx: HeldRegexes, kind: string, d: Node): void {
  if (d.id?.type !== "Identifier") return;
  if (kind === "const" && isRegexLiteral(d.init)) {
    (ctx.regexes ??= new Map()).set(d.id.name, d.init);
  } else ctx.regexes?.delete(d.id.name);
}

/**
 * The regular expression literal `node` is: itself when it is one, the literal a `const` of that
 * name was declared with, else undefined.
 *
 * @example
 * ```ts
 * import { regexOf } from "./regex_held.ts";
 * const literal = { type: "Literal", regex: { pattern: "^a", flags: "" } } as never;
 * const ctx = { regexes: new Map([["re", literal]]) };
 * if (regexOf({ type: "Identifier", name: "re" } as never, ctx) !== literal) throw new Error();
 * if (regexOf(literal, {}) !== literal || regexOf({ type: "Identifier", name: "x" } as never, ctx)) throw new Error();
 * ```
 */
export function regexOf(node: Node, ctx: HeldRegexes): Node | undefined {
  if (isRegexLiteral(node)) return node;
  return node.type === "Identifier" ? ctx.regexes?.get(node.name) : undefined;
}
