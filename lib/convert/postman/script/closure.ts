/**
 * What a `pm.sendRequest` callback's closure holds: the script's top-level
 * declarations before the call that the callback reads (`const token =
 * pm.environment.get("token")`, then a nested `pm.sendRequest` sending
 * `"Bearer " + token`). A callback is translated as a script of its own, so
 * these are written before its body, as the names it reads were declared.
 *
 * @module
 */
import { type Node, parseScript } from "./parse.ts";

/** A read of the response the script runs after, which a callback's own response is not. */
const RESPONSE = /\bpm\.(response|cookies)\b|\bresponse(Body|Code|Headers|Time)\b/;

/** The names `node` reads (not a member's name nor an object's key). */
function namesRead(node: Node): Set<string> {
  const names = new Set<string>();
  const stack: Node[] = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.type === "Identifier") names.add(n.name);
    for (const [key, child] of Object.entries(n)) {
      if ((key === "property" || key === "key") && !n.computed) continue;
      for (const c of Array.isArray(child) ? child : [child]) {
        if (c && typeof c === "object" && typeof c.type === "string") stack.push(c);
      }
    }
  }
  return names;
}

/**
 * The source of each top-level declaration of `source` ending before `at`
 * that `body` reads, but for a name in `own` (the callback's parameters),
 * one a line, to put before the callback's body.
 *
 * @example
 * ```ts
 * import { closureOf } from "./closure.ts";
 * import { parseScript } from "./parse.ts";
 * const source = "const t = pm.environment.get('t');\nconst u = 1;\npm.sendRequest('x', (e, r) => use(t));";
 * const p = parseScript(source);
 * if (!p.ok) throw new Error(p.why);
 * const call = p.program.body[2].expression;
 * const fn = call.arguments[1];
 * if (closureOf(source, call.start, fn.body, ["e", "r"]) !== "const t = pm.environment.get('t');\n") {
 *   throw new Error();
 * }
 * ```
 */
export function closureOf(source: string, at: number, body: Node, own: string[]): string {
  const read = namesRead(body);
  for (const name of own) read.delete(name);
  if (read.size === 0) return "";
  const parsed = parseScript(source);
  if (!parsed.ok) return "";
  const before = parsed.program.body.filter((s: Node) =>
    s.end <= at && s.type === "VariableDeclaration"
  );
  const kept: Node[] = [];
  // Latest first, so that a kept declaration's own reads are kept too (`base`, then `url = base + …`).
  for (const statement of before.reverse()) {
    const declared = statement.declarations.map((d: Node) =>
      d.id.type === "Identifier" ? d.id.name : ""
    );
    const text = source.slice(statement.start, statement.end);
    // What the script's own response holds is not the callback's response: never carried over.
    if (!declared.some((n: string) => read.has(n)) || RESPONSE.test(text)) continue;
    kept.unshift(statement);
    for (const n of namesRead(statement)) read.add(n);
  }
  return kept.map((s) => `${source.slice(s.start, s.end)}\n`).join("");
}
