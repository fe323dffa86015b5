/**
 * A response part's text in one case (`json.detail.toLowerCase()`, `toUpperCase()`), then
 * compared: `pm.expect(json.detail.toLowerCase()).to.include("permission")`. The part is carried
 * as the pseudo-path `lower:<path>` (`upper:<path>`) until a comparison says what it means; a
 * flow has no case-folding, so the check is a pattern on the part as it is, each letter a class
 * of the characters that fold to it (`[pP][eE]…`): it matches exactly where the folded text holds
 * the literal. A literal the fold cannot give (a capital after `toLowerCase()`) makes no check.
 *
 * @module
 */
import { type Cond, flowText, named, type Sym } from "./sym.ts";

type Fold = "lower" | "upper";

/** For each fold, the characters of the Basic Multilingual Plane that fold to each one. */
const sources = new Map<Fold, Map<string, string[]>>();

/** The characters whose fold is `ch` (one character each; a fold to two is left out). */
function foldingTo(ch: string, fold: Fold): string[] {
  let table = sources.get(fold);
  if (!table) {
    table = new Map();
    for (let code = 0; code <= 0xffff; code++) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const c = String.fromCharCode(code);
      const to = fold === "lower" ? c.toLowerCase() : c.toUpperCase();
      if (to.length === 1) table.set(to, [...(table.get(to) ?? []), c]);
    }
    sources.set(fold, table);
  }
  return table.get(ch) ?? [];
}

/** Characters a pattern escapes outside a class, and inside one. */
const SPECIAL = /[.*+?^${}()|[\]\\]/g;
const IN_CLASS = /[\\\]^-]/g;

/** A pattern matching exactly the texts whose fold is `text`; `undefined` when no text folds to it. */
function foldedPattern(text: string, fold: Fold): string | undefined {
  let out = "";
  for (const ch of text) {
    const from = ch.length === 1 ? foldingTo(ch, fold) : [];
    if (from.length === 0) return undefined;
    out += from.length === 1
      ? from[0].replace(SPECIAL, (s) => `\\${s}`)
      : `[${from.map((c) => c.replace(IN_CLASS, (s) => `\\${s}`)).join("")}]`;
  }
  return out;
}

/**
 * `x.toLowerCase()` or `x.toUpperCase()` of a response part: the part as `lower:<path>` or
 * `upper:<path>`; `undefined` for any other call.
 *
 * @example
 * ```ts
 * import { caseFolded } from "./case_fold.ts";
 * const s = caseFolded("toLowerCase", { k: "path", path: "$.json.detail" }, 0);
 * if (s?.k !== "path" || s.path !== "lower:$.json.detail") throw new Error();
 * if (caseFolded("trim", { k: "path", path: "$.json.a" }, 0) || caseFolded("toLowerCase", { k: "lit", value: "A" }, 0)) throw new Error();
 * ```
 */
export function caseFolded(method: string, on: Sym | undefined, args: number): Sym | undefined {
  const fold = method === "toLowerCase" ? "lower" : method === "toUpperCase" ? "upper" : undefined;
  if (!fold || args !== 0 || on?.k !== "path" || /^[a-zA-Z]+:/.test(on.path)) return undefined;
  return { k: "path", path: `${fold}:${on.path}` };
}

/**
 * A check on a part's folded text as a pattern on the part: `contains` (chai's `include` of
 * text) and `equals` of a literal text; `undefined` for another operator, a value not text, or
 * a literal no folded text holds. `c.value` is flow text (`$${` for a literal `${`).
 *
 * @example
 * ```ts
 * import { foldedCheck } from "./case_fold.ts";
 * const c = foldedCheck({ path: "lower:$.json.detail", op: "contains", value: "no access" });
 * if (c?.[0].op !== "matches" || c[0].path !== "$.json.detail" || !new RegExp(c[0].value as string).test("No Access here")) {
 *   throw new Error(JSON.stringify(c));
 * }
 * if (new RegExp(c[0].value as string).test("no accesS".replace("S", "x"))) throw new Error();
 * if (foldedCheck({ path: "lower:$.json.detail", op: "contains", value: "No" }) !== undefined) throw new Error();
 * const whole = foldedCheck({ path: "upper:$.json.code", op: "equals", value: "ok" });
 * if (whole !== undefined) throw new Error("no upper-cased text is lower-case");
 * ```
 */
export function foldedCheck(c: Cond): Cond[] | undefined {
  const m = c.path.match(/^(lower|upper):(.+)$/);
  if (!m || typeof c.value !== "string" || (c.op !== "contains" && c.op !== "equals")) return;
  const pattern = foldedPattern(named(c.value), m[1] as Fold);
  if (pattern === undefined) return undefined;
  const value = c.op === "equals" ? `^${pattern}$` : pattern;
  return [{ path: m[2], op: "matches", value }];
}

/**
 * `x.toLowerCase().includes("perm")` (or `toUpperCase()`) of a part, a literal text: the same
 * pattern as chai's `include` on the folded part; `undefined` for anything else.
 *
 * @example
 * ```ts
 * import { foldedIncludes } from "./case_fold.ts";
 * const s = foldedIncludes("includes", { k: "path", path: "lower:$.json.detail" }, { k: "lit", value: "perm" });
 * if (s?.k !== "cond" || s.conds[0].op !== "matches" || s.conds[0].path !== "$.json.detail") throw new Error();
 * if (foldedIncludes("includes", { k: "path", path: "$.json.detail" }, { k: "lit", value: "p" })) throw new Error();
 * ```
 */
export function foldedIncludes(
  method: string,
  on: Sym | undefined,
  arg: Sym | undefined,
): Sym | undefined {
  if (method !== "includes" || on?.k !== "path" || !/^(?:lower|upper):/.test(on.path)) return;
  if (arg?.k !== "lit" || typeof arg.value !== "string") return undefined;
  const conds = foldedCheck({
    path: on.path,
    op: "contains",
    value: flowText(arg.value) as string,
  });
  return conds ? { k: "cond", conds } : undefined;
}
