/**
 * A `switch` on a value known now (`switch (i)` in a loop being unrolled, literal_loop.ts): the
 * statements the case it picks runs, as JavaScript does, matching by `===`, falling through
 * into the cases below until a `break`, `default` when no case matches. Any case whose value is
 * not known now leaves the `switch` as written.
 *
 * @module
 */
import { type EvalContext, evaluate } from "./eval.ts";
import type { Node } from "./node.ts";

/** A value known now, or `NOT_KNOWN`. */
export const NOT_KNOWN: unique symbol = Symbol("not known");

/**
 * The statements `node` (a `SwitchStatement`) runs when its discriminant and every case's value
 * are known (`known` gives a value, or {@linkcode NOT_KNOWN}); undefined otherwise, or when a
 * case it runs holds a `break` inside a nested statement or a `continue`.
 *
 * @example
 * ```ts
 * import { parse } from "acorn";
 * import { chosenCase, NOT_KNOWN } from "./switch_fold.ts";
 * const source = "switch (2) { case 1: a(); break; case 2: b(); case 3: c(); break; default: d(); }";
 * const node = (parse(source, { ecmaVersion: "latest" }) as never as { body: never[] }).body[0];
 * const known = (n: { type: string; value?: unknown }) => n.type === "Literal" ? n.value : NOT_KNOWN;
 * const run = chosenCase(node, known);
 * if (run?.map((s: { start: number; end: number }) => source.slice(s.start, s.end)).join(" ") !== "b(); c();") throw new Error();
 * ```
 */
export function chosenCase(node: Node, known: (n: Node) => unknown): Node[] | undefined {
  if (node.type !== "SwitchStatement") return undefined;
  const value = known(node.discriminant);
  if (value === NOT_KNOWN) return undefined;
  const cases = node.cases as Node[];
  const tests = cases.map((c) => (c.test ? known(c.test) : undefined));
  if (tests.some((t) => t === NOT_KNOWN)) return undefined;
  let at = cases.findIndex((c, i) => c.test && tests[i] === value);
  if (at < 0) at = cases.findIndex((c) => !c.test);
  if (at < 0) return [];
  const run: Node[] = [];
  for (const statement of cases.slice(at).flatMap((c) => c.consequent as Node[])) {
    if (statement.type === "BreakStatement" && !statement.label) return run;
    if (breaksInside(statement)) return undefined;
    run.push(statement);
  }
  return run;
}

/**
 * {@linkcode chosenCase} with the values `ctx` knows now: a literal or a loop's turn.
 *
 * @example
 * ```ts
 * import { parse } from "acorn";
 * import { caseRun } from "./switch_fold.ts";
 * const node = (parse("switch (i) { case 1: a(); break; default: b(); }", { ecmaVersion: "latest" }) as never as { body: never[] }).body[0];
 * const ctx = { scope: new Map([["i", { k: "lit" as const, value: 1 }]]), tests: new Map(), variable: () => undefined };
 * if (caseRun(node, ctx)?.length !== 1) throw new Error();
 * if (caseRun(node, { ...ctx, scope: new Map() }) !== undefined) throw new Error();
 * ```
 */
export function caseRun(node: Node, ctx: EvalContext): Node[] | undefined {
  if (node.type !== "SwitchStatement") return undefined;
  return chosenCase(node, (n) => {
    const v = evaluate(n, ctx, 0);
    return v?.k === "lit" ? v.value : NOT_KNOWN;
  });
}

/** Whether a `break` or `continue` sits in `statement` outside any loop or switch of its own. */
function breaksInside(statement: Node): boolean {
  const stack: Node[] = [statement];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.type === "BreakStatement" || n.type === "ContinueStatement") return true;
    // A loop's, a switch's or a function's own `break` stops that one, not this switch.
    if (/^For|^While|^DoWhile|^Switch|Function/.test(n.type)) continue;
    for (const v of Object.values(n)) {
      if (Array.isArray(v)) stack.push(...v.filter((x) => x && typeof x.type === "string"));
      else if (v && typeof v === "object" && typeof (v as Node).type === "string") {
        stack.push(v as Node);
      }
    }
  }
  return false;
}
