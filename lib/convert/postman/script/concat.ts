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

/** A part `+` can join as text; undefined for anything else. */
function parts(s: Sym): Sym[] | undefined {
  if (s.k === "cat") return s.parts;
  const ok = (s.k === "path" && !s.path.includes(":")) || s.k === "var" ||
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
    return { k: "lit", value: (a.value as string) + (b.value as string) };
  }
  const [pa, pb] = [parts(a), parts(b)];
  if (!pa || !pb) return undefined;
  const all = [...pa, ...pb];
  const text = a.k === "cat" || b.k === "cat" ||
    all.some((p) => p.k === "lit" && typeof p.value === "string");
  return text && !all.every((p) => p.k === "lit") ? { k: "cat", parts: all } : undefined;
}

/** A value `+` works out the same whatever reads it: no object's `toString` involved. */
function primitive(v: unknown): boolean {
  return v === null || ["string", "number", "boolean", "undefined"].includes(typeof v);
}
