/**
 * Integer members of a request body whose bounds are exactly the numbers of
 * n digits (`minimum` 10^(n-1), `maximum` 10^n − 1: a FastAPI model's
 * `Field(ge=1000000000000, le=9999999999999)`), which say the member is a
 * code of n digits, not a quantity. The generator sends the lowest number the
 * bounds allow, the same in every flow and every run, and a server keeping
 * the code unique refused the second create 400 (a library API's ISBN); such
 * a member is sent `${RANDOM.DIGITS_<n>}` instead, a fresh number of n
 * digits, within the same bounds.
 *
 * @module
 */
import { isNode } from "../../check/openapi_operations.ts";
import type { YNode } from "../yaml_out.ts";
import { bodyMembers } from "./body_members.ts";
import type { OpenApiOperation } from "./operations.ts";

/** Fewest digits read as a code (fewer is likelier a quantity); most `RANDOM.DIGITS_<n>` makes. */
const FEWEST = 4;
const MOST = 15;

/**
 * The digit count of an integer schema bounded to exactly the numbers of that
 * many digits, else `undefined`.
 *
 * @example
 * ```ts
 * import { codeDigits } from "./digit_codes.ts";
 * if (codeDigits({ type: "integer", minimum: 1000, maximum: 9999 }) !== 4) throw new Error();
 * if (codeDigits({ type: "integer", minimum: 1, maximum: 50 }) !== undefined) throw new Error();
 * if (codeDigits({ type: "integer", minimum: 1000 }) !== undefined) throw new Error();
 * ```
 */
export function codeDigits(s: unknown): number | undefined {
  if (!isNode(s) || s.type !== "integer" || s.multipleOf !== undefined) return undefined;
  if (typeof s.minimum !== "number" || typeof s.maximum !== "number") return undefined;
  const n = String(s.minimum).length;
  if (n < FEWEST || n > MOST || s.minimum !== 10 ** (n - 1)) return undefined;
  return s.maximum === 10 ** n - 1 ? n : undefined;
}

/**
 * Each property name of `op`'s JSON body schema that is a code of n digits
 * (`codeDigits`), with n; none without a document.
 *
 * @example
 * ```ts
 * import { digitCodes } from "./digit_codes.ts";
 * const isbn = { type: "integer", minimum: 1000000000000, maximum: 9999999999999 };
 * const schema = { type: "object", properties: { isbn, copies: { type: "integer", minimum: 1 } } };
 * const op = { node: { requestBody: { content: { "application/json": { schema } } } } } as never;
 * const got = digitCodes({}, op);
 * if (got.get("isbn") !== 13 || got.size !== 1) throw new Error([...got].join());
 * ```
 */
export function digitCodes(doc: unknown, op: OpenApiOperation): Map<string, number> {
  const codes = new Map<string, number>();
  for (const [name, p] of bodyMembers(doc, op)) {
    const n = codeDigits(p);
    if (n !== undefined) codes.set(name, n);
  }
  return codes;
}

/**
 * A body (as flow YAML) with the generator's number for each code member
 * (`digitCodes`: the lowest of n digits) made `${RANDOM.DIGITS_<n>}`; a number
 * the document gave (any other) is kept.
 *
 * @example
 * ```ts
 * import { freshCodes } from "./digit_codes.ts";
 * import { ymap } from "../yaml_out.ts";
 * const codes = new Map([["isbn", 13]]);
 * const got = freshCodes(ymap([["isbn", 1000000000000], ["copies", 1]]), codes);
 * if (!JSON.stringify(got).includes('"${RANDOM.DIGITS_13}"')) throw new Error(JSON.stringify(got));
 * const kept = freshCodes(ymap([["isbn", 9780306406157]]), codes);
 * if (JSON.stringify(kept).includes("RANDOM")) throw new Error(JSON.stringify(kept));
 * ```
 */
export function freshCodes(node: YNode, codes: ReadonlyMap<string, number>, key = ""): YNode {
  if (codes.size === 0) return node;
  if (Array.isArray(node)) return node.map((n) => freshCodes(n, codes, key));
  const n = codes.get(key);
  if (typeof node === "number" && n !== undefined && node === 10 ** (n - 1)) {
    return `\${RANDOM.DIGITS_${n}}`;
  }
  if (node !== null && typeof node === "object" && node.kind === "map") {
    return { ...node, entries: node.entries.map(([k, v]) => [k, freshCodes(v, codes, k)]) };
  }
  return node;
}
