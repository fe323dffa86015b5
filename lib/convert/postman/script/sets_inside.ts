/**
 * The variables a statement the translator leaves as a comment sets anywhere
 * inside it: in a callback (`pm.sendRequest(url, (err, res) => pm.environment.set("id", …))`),
 * in a branch, a loop or a function it does not read. Postman sends what they set, so each
 * breaks the chain it starts (the summary names the requests that read it) rather than look
 * like a variable nothing defines.
 *
 * @module
 */
import type { Node } from "./parse.ts";
import { dotted } from "./eval.ts";

/**
 * The names `node`'s setter calls (`setters`, by dotted callee) set with a
 * literal name, found without recursion however deep the statement nests.
 *
 * @example
 * ```ts
 * import { setsInside } from "./sets_inside.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript('pm.sendRequest("/x", (e, r) => { pm.environment.set("id", r.json().id); });');
 * if (!p.ok) throw new Error(p.why);
 * const names = setsInside(p.program.body[0], new Set(["pm.environment.set"]));
 * if (names.join() !== "id") throw new Error(names.join());
 * ```
 */
export function setsInside(node: Node, setters: ReadonlySet<string>): string[] {
  const names: string[] = [];
  const stack: Node[] = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.type === "CallExpression") {
      const callee = dotted(n.callee);
      const first = n.arguments[0];
      if (
        callee && setters.has(callee) && first?.type === "Literal" &&
        typeof first.value === "string" && !names.includes(first.value)
      ) {
        names.push(first.value);
      }
    }
    for (const child of Object.values(n)) {
      for (const c of Array.isArray(child) ? child : [child]) {
        if (c && typeof c === "object" && typeof c.type === "string") stack.push(c);
      }
    }
  }
  return names;
}
