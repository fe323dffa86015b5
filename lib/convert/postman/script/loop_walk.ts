/**
 * How the translator walks a loop: over a response list, a check group over every element
 * (each.ts); over a list the script wrote or a counted loop (literal_loop.ts), the body once per
 * turn, the variable bound to the turn's value. A body it cannot translate whole stays as
 * written, once. A module of its own so that the translator stays one screenful a concept.
 *
 * @module
 */
import { type CheckItem, ELEMENT, type Loop, loopOf, rooted } from "./each.ts";
import { type EvalContext, evaluate } from "./eval.ts";
import {
  changesOutside,
  type CountedLoop,
  countedLoop,
  sharedTurns,
  writtenElements,
} from "./literal_loop.ts";
import type { Node } from "./node.ts";
import type { Sym } from "./sym.ts";
import type { Translation } from "./translation.ts";
import type { Untranslated } from "./untranslated.ts";

/** What of the translator a loop's walk uses. */
export interface LoopWalker {
  readonly ctx: EvalContext;
  readonly out: Translation;
  readonly comments: Untranslated;
  block(body: Node[], name: string | undefined, depth: number): void;
  skip(node: Node): void;
  lines(node: Node): void;
  /** The checks `walk` makes, kept apart from the step's. */
  collect(walk: () => void): CheckItem[];
  /** Checks added where the walk is. */
  emit(items: CheckItem[]): void;
}

/**
 * Walks `node` through `t` when it is a loop the translator knows (each.ts, literal_loop.ts);
 * false when it is none.
 *
 * @example
 * ```ts
 * import { translateScript } from "./translate.ts";
 * const t = translateScript("for (const k of ['a', 'b']) pm.test(k, () => pm.expect(pm.response.json()[k]).to.exist);", () => undefined);
 * if (t.checks.length !== 2 || t.untranslated.length !== 0) throw new Error(JSON.stringify(t));
 * ```
 */
export function walkLoop(
  t: LoopWalker,
  node: Node,
  name: string | undefined,
  depth: number,
): boolean {
  const loop = loopOf(node);
  const list = loop ? evaluate(loop.list, t.ctx, 0) : undefined;
  const elements = loop && !sharedTurns(node) ? writtenElements(list) : undefined;
  const turns = loop && elements
    ? { ...loop, elements }
    : loop
    ? undefined
    : countedLoop(node, t.ctx);
  // Turns that build one value together (`s += …`) stay as written: a comment, as before.
  if (turns && changesOutside(turns.body)) return t.skip(node), true;
  if (turns) return unrolled(t, node, turns, name, depth), true;
  if (loop) return overList(t, node, loop, list, name, depth), true;
  return false;
}

/** `scope` with `variable` bound to `value` while `walk` runs, as it was after. */
function bound(scope: EvalContext["scope"], variable: string, value: Sym, walk: () => void): void {
  const [had, shadowed] = [scope.has(variable), scope.get(variable)];
  scope.set(variable, value);
  walk();
  if (had) scope.set(variable, shadowed);
  else scope.delete(variable);
}

/** A loop over a response list: a group over every element (see each.ts). */
function overList(
  t: LoopWalker,
  node: Node,
  loop: Loop,
  list: Sym | undefined,
  name: string | undefined,
  depth: number,
) {
  if (list?.k !== "path" || list.path.startsWith(ELEMENT)) return t.skip(node);
  const before = { translated: t.out.translated, lines: t.out.untranslated.length };
  let inner: CheckItem[] = [];
  bound(t.ctx.scope, loop.variable, { k: "path", path: ELEMENT }, () => {
    inner = t.collect(() => t.block(loop.body, name, depth));
  });
  const checks = rooted(inner);
  const captured = t.out.captures.some((c) => c.path.startsWith(ELEMENT));
  if (checks && !captured) {
    if (checks.length > 0) t.emit([{ at: `${list.path}[*]`, checks }]);
    t.comments.underLoop(node, loop.list, before.lines);
    return;
  }
  // Something in the body reads more than the element: the whole loop stays as written.
  t.out.captures = t.out.captures.filter((c) => !c.path.startsWith(ELEMENT));
  t.comments.truncate(before.lines);
  t.out.untranslatedAssertions += t.out.translated - before.translated;
  t.out.translated = before.translated;
  t.lines(node);
}

/**
 * A loop over a list the script wrote, or a counted one: its body once per turn, the variable
 * bound to the turn's value. A body any turn leaves untranslated stays a comment, once, whole.
 */
function unrolled(
  t: LoopWalker,
  node: Node,
  loop: CountedLoop,
  name: string | undefined,
  depth: number,
) {
  const out = t.out as unknown as Record<string, unknown>;
  const lengths = Object.entries(out).filter(([, v]) => Array.isArray(v)).map(([k, v]) =>
    [k, (v as unknown[]).length] as const
  );
  const counts = [t.out.translated, t.out.untranslatedAssertions];
  const lines = t.out.untranslated.length;
  const left = () => t.out.untranslated.length > lines;
  const items = t.collect(() => {
    for (const turn of loop.elements) {
      if (!left()) bound(t.ctx.scope, loop.variable, turn, () => t.block(loop.body, name, depth));
    }
  });
  if (!left()) return t.emit(items);
  t.comments.truncate(lines);
  for (const [k, n] of lengths) (out[k] as unknown[]).length = n;
  [t.out.translated, t.out.untranslatedAssertions] = counts;
  t.skip(node);
}
