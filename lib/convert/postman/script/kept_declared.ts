/**
 * What a script's declaration keeps beside the value it evaluates to, for later reads of the
 * name: a `const`'s object literal (or the request's own body) for calls that read its fields
 * (object_member.ts), a `const`'s regular expression literal for checks that match with it
 * (regex_held.ts), and every declared expression in order for counter.ts to replay.
 *
 * @module
 */
import { heldObject } from "./body_object.ts";
import type { EvalContext } from "./eval.ts";
import type { Node } from "./parse.ts";
import { keepRegex } from "./regex_held.ts";

/**
 * Notes declaration `d` (of a `var`, `let` or `const` statement `node`) in `ctx`.
 *
 * @example
 * ```ts
 * import { keepDeclared } from "./kept_declared.ts";
 * import type { EvalContext } from "./eval.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("const o = { a: 1 }; const re = /x/;");
 * if (!p.ok) throw new Error();
 * const ctx = { scope: new Map(), tests: new Map(), variable: () => undefined } as unknown as EvalContext;
 * for (const node of p.program.body) keepDeclared(ctx, node, node.declarations[0]);
 * if (!ctx.objects?.has("o") || !ctx.regexes?.has("re") || ctx.kept?.length !== 2) throw new Error();
 * ```
 */
export function keepDeclared(ctx: EvalContext, node: Node, d: Node): void {
  const held = heldObject(d.init, ctx.ownBody);
  if (node.kind === "const" && held) (ctx.objects ??= new Map()).set(d.id.name, held);
  keepRegex(ctx, node.kind, d);
  if (d.init) (ctx.kept ??= []).push({ name: d.id.name, node: d.init });
}
