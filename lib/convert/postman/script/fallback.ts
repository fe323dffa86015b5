/**
 * One variable set from two parts of one answer: a login script keeps the
 * body's token when it has one, and else cuts it from a cookie
 * (`if (j.token) set("token", "Bearer " + j.token);` then
 * `if (!pm.environment.get("token")) { … set("token", "Bearer " + m[1]) }`,
 * or `set("token", json.token || pm.cookies.get("t"))`). The second source
 * becomes the `fallback` of the first set's captures: the flow captures it
 * above them (optional) and their `otherwise` reads it, so the variable is one
 * capture whichever part the answer held. Both values must have the same
 * shape (the same literal text around one response part each, as
 * `"Bearer " + …` on both sides), since a capture holds the part, not the text.
 *
 * @module
 */
import { dotted } from "./eval.ts";
import { cutSource } from "./cut.ts";
import type { Node } from "./parse.ts";
import type { Cond, Sym } from "./sym.ts";
import type { Translation } from "./translation.ts";
import { VARIABLE_GETTERS } from "../scopes.ts";

/** Where a fallback reads: a capture source, and when the script would take it. */
export type Fallback = NonNullable<Translation["captures"][number]["fallback"]>;

/**
 * The variable an `if`'s test says is unset or falsy: `!pm.environment.get("x")`.
 *
 * @example
 * ```ts
 * import { unsetTest } from "./fallback.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("!pm.environment.get('token')");
 * if (!p.ok || unsetTest(p.program.body[0].expression)?.name !== "token") throw new Error();
 * ```
 */
export function unsetTest(test: Node): { name: string; getter: Node } | undefined {
  if (test.type !== "UnaryExpression" || test.operator !== "!") return undefined;
  const call = test.argument;
  if (call.type !== "CallExpression" || !VARIABLE_GETTERS.has(dotted(call.callee) ?? "")) {
    return undefined;
  }
  const [key] = call.arguments;
  return key?.type === "Literal" && typeof key.value === "string"
    ? { name: key.value, getter: call }
    : undefined;
}

/**
 * The capture source a response part is read from; undefined when the part is none flowrun
 * captures (a pseudo-path, a list).
 *
 * @example
 * ```ts
 * import { sourceOf } from "./fallback.ts";
 * const cut = sourceOf({ k: "cut", path: "$.headers['set-cookie']", stage: "value", regex: "t=([^;]+)" });
 * if (cut?.header !== "set-cookie" || sourceOf({ k: "path", path: "$.json.token" })?.path !== "$.json.token") throw new Error();
 * ```
 */
export function sourceOf(s: Sym): Fallback | undefined {
  if (s.k === "path") return s.path.includes(":") ? undefined : { path: s.path };
  if (s.k === "pick") return s.list ? undefined : { path: s.path, first: true };
  if (s.k !== "cut") return undefined;
  const cut = cutSource(s);
  return cut && !cut.regex.includes("${") ? { path: s.path, ...cut } : undefined;
}

/**
 * The response parts of `first` and `second` side by side, by their place in
 * the value (`[1, …]` in `"Bearer " + x`, `[0, …]` for a part alone); undefined
 * when the two differ in any other way.
 *
 * @example
 * ```ts
 * import { pairedParts } from "./fallback.ts";
 * const lit = { k: "lit" as const, value: "Bearer " };
 * const a = { k: "cat" as const, parts: [lit, { k: "path" as const, path: "$.json.token" }] };
 * const b = { k: "cat" as const, parts: [lit, { k: "path" as const, path: "$.jar.t" }] };
 * if (pairedParts(a, b)?.[0][0] !== 1) throw new Error();
 * if (pairedParts(a, { k: "path", path: "$.jar.t" })) throw new Error();
 * ```
 */
export function pairedParts(first: Sym, second: Sym): [number, Fallback][] | undefined {
  if (first.k !== "cat" || second.k !== "cat") {
    const s = first.k === "cat" || second.k === "cat" ? undefined : sourceOf(second);
    return s && sourceOf(first) ? [[0, s]] : undefined;
  }
  if (first.parts.length !== second.parts.length) return undefined;
  const pairs: [number, Fallback][] = [];
  for (const [i, a] of first.parts.entries()) {
    const pair = pairedPart(a, second.parts[i]);
    if (pair === undefined) return undefined;
    if (pair !== "same") pairs.push([i, pair]);
  }
  return pairs.length > 0 ? pairs : undefined;
}

/** One place of two joined texts: the same literal, or two response parts (the second's source). */
function pairedPart(a: Sym, b: Sym): Fallback | "same" | undefined {
  if (a.k === "lit" || b.k === "lit") {
    return a.k === "lit" && b.k === "lit" && String(a.value) === String(b.value)
      ? "same"
      : undefined;
  }
  return sourceOf(a) ? sourceOf(b) : undefined;
}

/**
 * Gives the captures of the earlier set of `name` (the part itself, or its
 * `<name>_partN` when `joined` text) the second source as their fallback; false,
 * changing nothing, when a part has no capture to fall back from (under a `when`, or a plain
 * part set whatever the answer, which then gets the `when` of its truthiness).
 *
 * @example
 * ```ts
 * import { attachFallback } from "./fallback.ts";
 * const when = [{ path: "$.json.token", op: "truthy", value: true }];
 * import type { Translation } from "./translation.ts";
 * const out: Pick<Translation, "captures"> = { captures: [{ name: "token", path: "$.json.token", guarded: true, when }] };
 * if (!attachFallback(out, "token", [[0, { path: "$.jar.t" }]], [], false)) throw new Error();
 * if (out.captures[0].fallback?.path !== "$.jar.t") throw new Error();
 * ```
 */
export function attachFallback(
  out: Pick<Translation, "captures">,
  name: string,
  pairs: [number, Fallback][],
  when: Cond[],
  joined: boolean,
): boolean {
  // A part set whatever the answer (`set("token", json.token)`) is set when it is truthy: a
  // later `!get` reads it so. Joined text is never empty, so only a set under a `when` is one.
  const plain = (c: Translation["captures"][number]) =>
    !joined && !c.guarded && !c.first && c.regex === undefined;
  const targets = pairs.map(([i]) =>
    out.captures.findLast((c) =>
      (c.when || plain(c)) && !c.fallback &&
      (joined ? c.of === name && c.name === `${name}_part${i + 1}` : c.name === name && !c.of)
    )
  );
  if (targets.some((t) => t === undefined)) return false;
  for (const [k, t] of targets.entries()) {
    t!.when ??= [{ path: t!.path, op: "truthy", value: true }];
    t!.fallback = { ...pairs[k][1], ...(when.length > 0 ? { when } : {}) };
  }
  return true;
}
