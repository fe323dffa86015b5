/**
 * Text a script joins with `+` from parts read at run time: `"Bearer " +
 * json.token`, `pm.environment.get("base") + "/items/" + json.id`. Each part
 * is a literal, a Postman variable or a part of the response; the whole is
 * text only when a text literal is in it (JavaScript's `+` adds numbers
 * otherwise), and something in it is read at run time.
 *
 * @module
 */
import type { Sym } from "./sym.ts";
import { sharesOf } from "./share.ts";
// Read with the joins by eval.ts's template literals.
export { sharesOf };

/** A part `+` can join as text; undefined for anything else. */
function parts(s: Sym): Sym[] | undefined {
  if (s.k === "cat") return s.parts;
  // A value cut from a header or the body (`m[1]`) is a part too: a capture of its own.
  // So is the first element a `find` picks, or a member of it (`u.id`): a capture with `first`.
  const ok = (s.k === "path" && !s.path.includes(":")) || s.k === "var" ||
    (s.k === "pick" && !s.list) ||
    (s.k === "cut" && s.stage === "value") ||
    (s.k === "lit" && (typeof s.value === "string" || typeof s.value === "number"));
  return ok ? [s] : undefined;
}

/**
 * `a + b` as joined text (`{k: "cat"}`), or undefined when it is not one.
 *
 * @example
 * ```ts
 * import { concat } from "./concat.ts";
 * const joined = concat("+", { k: "lit", value: "Bearer " }, { k: "path", path: "$.json.token" });
 * if (joined?.k !== "cat" || joined.parts.length !== 2) throw new Error();
 * if (concat("+", { k: "path", path: "$.json.a" }, { k: "lit", value: 1 }) !== undefined) throw new Error();
 * ```
 */
export function concat(op: string, a: Sym, b: Sym): Sym | undefined {
  if (op !== "+") return undefined;
  // Two values known now join (or add) as JavaScript joins them: `"from " + pm.info.requestName`.
  if (a.k === "lit" && b.k === "lit" && primitive(a.value) && primitive(b.value)) {
    const from = [...new Set([...(a.from ?? []), ...(b.from ?? [])])];
    return {
      k: "lit",
      value: (a.value as string) + (b.value as string),
      ...(from.length ? { from } : {}),
    };
  }
  const [pa, pb] = [parts(a), parts(b)];
  if (!pa || !pb) return undefined;
  const all = [...pa, ...pb];
  const text = a.k === "cat" || b.k === "cat" ||
    all.some((p) => p.k === "lit" && typeof p.value === "string");
  return text && !all.every((p) => p.k === "lit") ? { k: "cat", parts: all } : undefined;
}

/**
 * A value `+` works out the same whatever reads it: no object's `toString`, and not `undefined`,
 * which is how a variable nothing defines reads here while a user may still give it a value.
 */
function primitive(v: unknown): boolean {
  return v === null || ["string", "number", "boolean"].includes(typeof v);
}

/**
 * A value as flow text: a literal escaped, a variable or made value as its expression.
 *
 * @example
 * ```ts
 * import { asText } from "./concat.ts";
 * if (asText({ k: "lit", value: "a${b}" }) !== "a$${b}" || asText({ k: "gen", text: "${RANDOM.UUID}" }) !== "${RANDOM.UUID}") throw new Error();
 * ```
 */
export function asText(s: Sym): string | undefined {
  if (s.k === "lit") {
    return ["string", "number", "boolean"].includes(typeof s.value)
      ? String(s.value).replaceAll("${", () => "$${")
      : undefined;
  }
  if (s.k === "gen") return s.text;
  return s.k === "var" ? s.expr : undefined;
}

/**
 * `"user-" + Date.now()`: a made value joined with text is made text too.
 * Arithmetic on one (`Math.random() * 4 + 1`, `Date.now() + 1`) is a made
 * number, which no flow expression makes (they make text: hex, UUIDs), so it
 * is not translated and its line stays a comment for a person.
 *
 * @example
 * ```ts
 * import { generated } from "./concat.ts";
 * const s = generated("+", { k: "lit", value: "user-" }, { k: "gen", text: "${NOW.UNIX_MS}" });
 * if (s?.k !== "gen" || s.text !== "user-${NOW.UNIX_MS}") throw new Error(JSON.stringify(s));
 * ```
 */
export function generated(op: string, a: Sym, b: Sym): Sym | undefined {
  if (a.k !== "gen" && b.k !== "gen") return undefined;
  if (op !== "+") return undefined;
  const isText = (s: Sym) => s.k === "gen" || (s.k === "lit" && typeof s.value === "string");
  if (!isText(a) || !isText(b)) return undefined;
  const ta = asText(a);
  const tb = asText(b);
  // A local's made value joined into text is still that one value (share.ts).
  return ta === undefined || tb === undefined
    ? undefined
    : { k: "gen", text: ta + tb, ...sharesOf([a, b]) };
}

/**
 * A variable's value, or text joined from literals and variables' values (`"id " + v`,
 * `` `id ${v}` ``), as flow text: the same at each read, so a check may compare with it;
 * `undefined` for anything else (a response part, a made value).
 *
 * @example
 * ```ts
 * import { variableText } from "./concat.ts";
 * const v = { k: "var" as const, name: "id", expr: "${vars.id}" };
 * const s = variableText({ k: "cat", parts: [{ k: "lit", value: "id " }, v] });
 * if (s !== "id ${vars.id}" || variableText({ k: "gen", text: "${RANDOM.UUID}" }) !== undefined) throw new Error();
 * ```
 */
export function variableText(s: Sym): string | undefined {
  if (s.k === "var") return s.expr;
  if (s.k !== "cat" || !s.parts.every((p) => p.k === "lit" || p.k === "var")) return undefined;
  const texts = s.parts.map(asText);
  return texts.every((t) => t !== undefined) ? texts.join("") : undefined;
}
