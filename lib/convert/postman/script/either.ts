/**
 * Values a script computes from what it already knows: `a || b` (and `??`) as
 * Postman reads a variable in two scopes or with a default, and a text method
 * on a literal (`'A'.repeat(1000)`, `'x'.toUpperCase()`), whose value is known
 * before the request and is sent as Newman sends it.
 *
 * @module
 */
import type { Node } from "./parse.ts";
import type { Sym } from "./sym.ts";
import { paddedDigits } from "./padded.ts";
import { toText } from "./to_text.ts";
import { caseFolded } from "./case_fold.ts";

/** The longest text a literal's method may make: beyond it the value stays unknown. */
const MAX_MADE_TEXT = 100_000;

/**
 * `a || b`: `a` when it is known to be there or `b` is the same value; else
 * `undefined` (unknown). `right` evaluates `b`, only when it is read.
 *
 * @example
 * ```ts
 * import { either } from "./either.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript("pm.environment.get('id') || pm.collectionVariables.get('id')");
 * if (!p.ok) throw new Error(p.why);
 * const id = { k: "var" as const, name: "id", expr: "${vars.id}" };
 * if (either(p.program.body[0].expression, id, () => id) !== id) throw new Error();
 * ```
 */
export function either(
  node: Node,
  a: Sym | undefined,
  right: () => Sym | undefined,
): Sym | undefined {
  // `json.user || {}`: a default for a missing part, which the checks on it report anyway.
  const fallback = node.right.type === "ObjectExpression" || node.right.type === "ArrayExpression";
  if (a?.k === "path" && fallback) return a;
  if (a?.k === "lit") return a.value ? a : right();
  // `pm.environment.get("id") || pm.collectionVariables.get("id")`: one variable read in two
  // scopes, or a default that is not there (a falsy literal): Newman sends the first's value.
  if (a?.k === "var") {
    const b = right();
    return (b?.k === "var" && b.name === a.name) || (b?.k === "lit" && !b.value) ? a : undefined;
  }
  // `headers.get('set-cookie') || headers.get('Set-Cookie')`: one header, whatever its case.
  const b = a?.k === "path" ? right() : undefined;
  return a?.k === "path" && b?.k === "path" && b.path === a.path ? a : undefined;
}

/** Text methods whose value, on a literal text with literal arguments, is known here. */
const TEXT_METHODS = new Set([
  "repeat",
  "toUpperCase",
  "toLowerCase",
  "trim",
  "padStart",
  "padEnd",
  "slice",
  "substring",
  "substr",
  "charAt",
  "trimStart",
  "trimEnd",
  "concat",
  // Text for text: the real method, as Newman's, replacement patterns (`$&`) included.
  "replace",
  "replaceAll",
]);

/**
 * The value known now of a literal, or of a variable the flow reads from the collection's files
 * (its `file` text, which Newman reads from the same files); `undefined` otherwise.
 *
 * @example
 * ```ts
 * import { fileText } from "./either.ts";
 * if (fileText({ k: "var", name: "pw", expr: "${vars.pw}", file: "s3cret!" }) !== "s3cret!") throw new Error();
 * if (fileText({ k: "var", name: "t", expr: "${ENV.T}" }) !== undefined || fileText({ k: "lit", value: 2 }) !== 2) throw new Error();
 * ```
 */
export function fileText(s: Sym | undefined): unknown {
  return s?.k === "lit" ? s.value : s?.k === "var" ? s.file : undefined;
}

/**
 * `'A'.repeat(1000)`: the text a method makes of a literal text, `undefined`
 * when the call is not one whose value is known here.
 *
 * @example
 * ```ts
 * import { literalText } from "./either.ts";
 * const made = literalText("repeat", { k: "lit", value: "ab" }, [{ k: "lit", value: 3 }]);
 * if (made?.k !== "lit" || made.value !== "ababab") throw new Error(JSON.stringify(made));
 * ```
 */
export function literalText(
  method: string,
  on: Sym | undefined,
  args: (Sym | undefined)[],
): Sym | undefined {
  // `x.toString()` of a value known as text (a variable's, a literal's) is that text.
  const known = toText(method, on, args.length) ?? caseFolded(method, on, args.length) ??
    paddedDigits(method, on, args);
  if (known) return known;
  // A variable's text the files give is known now too: `pw.charAt(pw.length - 1)`.
  const text = fileText(on);
  if (typeof text !== "string" || !TEXT_METHODS.has(method)) return;
  const values = args.map((a) => (a?.k === "lit" ? a.value : Symbol()));
  if (!values.every((v) => typeof v === "string" || typeof v === "number")) return;
  const count = method === "repeat" ? Number(values[0]) : 0;
  if (count * text.length > MAX_MADE_TEXT) return;
  try {
    const f = (text as unknown as Record<string, (...a: unknown[]) => unknown>)[method];
    const value = f.apply(text, values);
    return typeof value === "string" && value.length <= MAX_MADE_TEXT
      ? { k: "lit", value, ...fromOf(on) }
      : undefined;
  } catch {
    return undefined; // `'a'.repeat(-1)`: JavaScript throws; the value stays unknown
  }
}

/** The variables a value known now was worked out from: the variable itself, or the text's own. */
function fromOf(on: Sym | undefined): { from?: string[] } {
  const from = on?.k === "var" ? [on.name] : on?.k === "lit" ? on.from : undefined;
  return from ? { from } : {};
}

/**
 * A member of a value known now (a parsed body's field, a text's length), as JavaScript reads
 * it, own members only; `undefined` (unknown) for anything else.
 *
 * @example
 * ```ts
 * import { knownMember } from "./either.ts";
 * const len = knownMember("abc", "length");
 * const field = knownMember({ id: 7 }, "id");
 * if (len?.k !== "lit" || len.value !== 3 || field?.k !== "lit" || field.value !== 7) throw new Error();
 * if (knownMember(undefined, "length") !== undefined) throw new Error();
 * ```
 */
export function knownMember(value: unknown, key: unknown): Sym | undefined {
  if (typeof value === "string" && key === "length") return { k: "lit", value: value.length };
  if (value === null || typeof value !== "object") return undefined;
  const own = Object.hasOwn(value, String(key));
  return { k: "lit", value: own ? (value as Record<string, unknown>)[String(key)] : undefined };
}
