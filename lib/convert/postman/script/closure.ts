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

/**
 * A line `const name = value;` for each name `body` reads that the script's scope holds as a
 * value known now (text, a number, a boolean, or a list or object of them, written as JSON), but
 * for a name in `own` and one `declared` (the closure's own declarations): a loop's turn being
 * unrolled (`for (let i = 1; …) pm.sendRequest(url + i, (e, r) => … i …)`, each callback its own
 * `i`), or a block's `const` (`const names = ["a", "b"]` in the `pm.test` around the call). A
 * callback is translated as a script of its own, so it needs them written.
 *
 * @example
 * ```ts
 * import { boundNow } from "./closure.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("(e, r) => pm.expect(r.json().name).to.eql(`order${i}` + t)");
 * if (!p.ok) throw new Error(p.why);
 * const fn = p.program.body[0].expression;
 * const scope = new Map([["i", { k: "lit" as const, value: 2 }], ["t", { k: "lit" as const, value: "x" }]]);
 * if (boundNow(fn.body, ["e", "r"], new Set(["t"]), scope) !== "const i = 2;\n") throw new Error();
 * const own = parseScript("(e, r) => { const i = 9; pm.expect(r.json().n).to.eql(i); }");
 * if (!own.ok || boundNow(own.program.body[0].expression.body, ["e", "r"], new Set(), scope) !== "") throw new Error();
 * const listed = new Map([["t", { k: "lit" as const, value: ["a", 1] }], ["i", { k: "lit" as const, value: undefined }]]);
 * if (boundNow(fn.body, ["e", "r"], new Set(), listed) !== 'const t = ["a",1];\n') throw new Error();
 * ```
 */
export function boundNow(
  body: Node,
  own: string[],
  declared: ReadonlySet<string>,
  scope: ReadonlyMap<string, { k: string; value?: unknown } | undefined>,
): string {
  const lines: string[] = [];
  const inside = declaredInside(body);
  for (const name of namesRead(body)) {
    if (inside.has(name)) continue; // the callback's own (a `const` of its own, a parameter)
    const sym = scope.get(name);
    const json = sym?.k === "lit" ? jsonOf(sym.value) : undefined;
    if (json && !own.includes(name) && !declared.has(name)) {
      lines.push(`const ${name} = ${json};\n`);
    }
  }
  return lines.join("");
}

/** The names `body` declares itself: its declarations', functions' and nested functions' parameters. */
function declaredInside(body: Node): Set<string> {
  const names = new Set<string>();
  const stack: Node[] = [body];
  while (stack.length > 0) {
    const n = stack.pop()!;
    const bound: Node[] = n.type === "VariableDeclarator"
      ? [n.id]
      : /Function/.test(n.type)
      ? [...(n.id ? [n.id] : []), ...n.params]
      : n.type === "CatchClause" && n.param
      ? [n.param]
      : [];
    for (const b of bound) for (const name of namesRead(b)) names.add(name);
    for (const child of Object.values(n)) {
      for (const c of Array.isArray(child) ? child : [child]) {
        if (c && typeof c === "object" && typeof c.type === "string") stack.push(c);
      }
    }
  }
  return names;
}

/** `value` as JSON when JSON says it whole (no `undefined`, function or lost number), at most 4 KiB. */
function jsonOf(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const json = JSON.stringify(value);
  const whole = json !== undefined && json.length <= 4096 &&
    JSON.stringify(JSON.parse(json)) === json && sameJson(JSON.parse(json), value);
  return whole ? json : undefined;
}

/** Whether `a` (JSON parsed back) is `b` member for member: JSON drops an `undefined` member. */
function sameJson(a: unknown, b: unknown): boolean {
  if (typeof a !== "object" || a === null) return Object.is(a, b);
  if (typeof b !== "object" || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  const [ka, kb] = [Object.keys(a), Object.keys(b)];
  return ka.length === kb.length &&
    ka.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/**
 * The names the top-level declarations of `closure` (closureOf's text) declare.
 *
 * @example
 * ```ts
 * import { closureNames } from "./closure.ts";
 * if ([...closureNames("const a = 1;\nlet { b } = x;\n")].join() !== "a") throw new Error();
 * ```
 */
export function closureNames(closure: string): Set<string> {
  const parsed = closure ? parseScript(closure) : undefined;
  const names = new Set<string>();
  for (const s of parsed?.ok ? parsed.program.body : []) {
    for (const d of s.declarations ?? []) if (d.id.type === "Identifier") names.add(d.id.name);
  }
  return names;
}
