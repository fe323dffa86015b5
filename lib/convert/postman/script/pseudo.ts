/**
 * Pseudo-paths: `typeof x` and `x.indexOf(v)` are carried as `typeof:<path>`
 * and `indexOf:<path>:<v>` (not JSONPath) until a comparison says what they
 * mean; this reads them into the check flowrun has, so none reaches a flow.
 *
 * @module
 */
import { flowText, type Sym } from "./sym.ts";

const TYPES = new Set(["string", "number", "boolean", "object"]);

/**
 * `typeof x === "string"` and `x.indexOf(v) !== -1`, carried as pseudo-paths
 * until compared: the check flowrun has for the comparison, or `undefined`.
 *
 * @example
 * ```ts
 * import { pseudo } from "./pseudo.ts";
 * const s = pseudo("typeof:$.json.a", "===", { k: "lit", value: "string" });
 * if (s?.k !== "cond" || s.conds[0].op !== "type") throw new Error();
 * if (pseudo("indexOf:$.json.a:\"x\"", "===", { k: "lit", value: 3 }) !== undefined) throw new Error();
 * ```
 */
export function pseudo(path: string, op: string, b: Sym): Sym | undefined {
  const typed = path.match(/^typeof:(.+)$/);
  if (typed) {
    if (b.k === "lit" && b.value === "undefined") {
      // `typeof x !== "undefined"`: whether the part is there at all.
      const there = op === "!==" || op === "!=" ? true : op === "===" || op === "==" ? false : null;
      return there === null
        ? undefined
        : { k: "cond", conds: [{ path: typed[1], op: "exists", value: there }] };
    }
    if (b.k !== "lit" || !TYPES.has(String(b.value)) || (op !== "===" && op !== "==")) {
      return undefined;
    }
    return { k: "cond", conds: [{ path: typed[1], op: "type", value: b.value }] };
  }
  const index = path.match(/^indexOf:(.+):(.*)$/);
  if (!index) return undefined;
  const found = b.k === "lit" &&
    ((b.value === -1 && (op === "!==" || op === "!=" || op === ">")) ||
      (b.value === 0 && op === ">="));
  return found
    ? {
      k: "cond",
      conds: [{ path: index[1], op: "contains", value: flowText(JSON.parse(index[2])) }],
    }
    : undefined;
}
