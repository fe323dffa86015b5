/**
 * A value cut out of a header or the body text, as scripts chain an id from
 * a `Location` header or a token from a page: `headers.get("Location").split("/").pop()`,
 * `.split("/")[2]`, `.match(/ref=(\w+)/)[1]`, `responseBody.match(/token="(.+?)"/)[1]`.
 * Each is a flow capture with a regular expression (`{header: location, regex: …}`,
 * `{regex: …}` over the body) whose first group is the value JavaScript gives;
 * `cut` symbols are read by nothing but a set (a capture), never a check.
 *
 * @module
 */
import type { Sym } from "./sym.ts";
import { escapeRegExp as escape } from "../../../_util/regex_escape.ts";

type Cut = Extract<Sym, { k: "cut" }>;

/** Escapes a character for a regular expression, outside a class and in one (`[^…]`). */
const inClass = (c: string) => c.replace(/[\]\\^-]/g, "\\$&");

/** The value `[i]` of a split on one character: the part after `i` separators. */
function splitPart(sep: string, i: number | "last"): string {
  const other = `[^${inClass(sep)}]*`;
  return i === "last" ? `(${other})$` : `^(?:${other}${escape(sep)}){${i}}(${other})`;
}

/**
 * `x.match(/re/)` and `x.split("c")` on a header or the body, and `.pop()`
 * of a split: a `cut`; `null` when the call is none of these.
 *
 * @example
 * ```ts
 * import { cutCall, cutMember } from "./cut.ts";
 * const split = cutCall("split", { k: "path", path: "$.headers.location" }, { type: "Literal", value: "/" });
 * const last = split && cutCall("pop", split, undefined);
 * if (last?.k !== "cut" || last.regex !== "([^/]*)$") throw new Error(JSON.stringify(last));
 * const m = cutCall("match", { k: "path", path: "$.body" }, { type: "Literal", regex: { pattern: "id=(\\d+)", flags: "" } });
 * if (m?.k !== "cut" || cutMember(m, 1)?.regex !== "id=(\\d+)") throw new Error();
 * ```
 */
export function cutCall(
  method: string,
  on: Sym | undefined,
  arg: { type: string; value?: unknown; regex?: { pattern: string; flags: string } } | undefined,
): Cut | undefined | null {
  if (method === "pop") {
    return on?.k === "cut" && on.stage === "split"
      ? { ...on, stage: "value", regex: splitPart(on.sep!, "last") }
      : null;
  }
  if (method !== "match" && method !== "split") return null;
  if (on?.k !== "path") return null;
  if (method === "match") {
    const re = arg?.type === "Literal" ? arg.regex : undefined;
    return re && re.flags === ""
      ? { k: "cut", path: on.path, stage: "match", regex: re.pattern }
      : undefined;
  }
  const sep = arg?.type === "Literal" ? arg.value : undefined;
  return typeof sep === "string" && [...sep].length === 1
    ? { k: "cut", path: on.path, stage: "split", sep }
    : undefined;
}

/**
 * `[i]` of a match (`[1]` its first group, `[0]` the whole match) or of a
 * split (the `i`-th part); undefined for any other member.
 *
 * @example
 * ```ts
 * import { cutMember } from "./cut.ts";
 * const part = cutMember({ k: "cut", path: "$.body", stage: "split", sep: "," }, 2);
 * if (part?.regex !== "^(?:[^,]*,){2}([^,]*)") throw new Error(part?.regex);
 * ```
 */
export function cutMember(cut: Cut, key: unknown): Cut | undefined {
  if (typeof key !== "number" || !Number.isInteger(key) || key < 0) return undefined;
  if (cut.stage === "split") return { ...cut, stage: "value", regex: splitPart(cut.sep!, key) };
  if (cut.stage !== "match") return undefined;
  // The whole match is the first group of the pattern wrapped, unless it refers to its groups.
  if (key === 0) {
    return /\\\d/.test(cut.regex!)
      ? undefined
      : { ...cut, stage: "value", regex: `(${cut.regex})` };
  }
  return key === 1 && /\((?!\?)/.test(cut.regex!) ? { ...cut, stage: "value" } : undefined;
}

/**
 * The capture a cut value is: the header it reads (by name), the body text or
 * a JSON member's text (the capture's own path, `{path, regex}`), and the
 * expression; undefined when it cuts anything else.
 *
 * @example
 * ```ts
 * import { cutSource } from "./cut.ts";
 * const c = cutSource({ k: "cut", path: "$.headers['x-ref']", stage: "value", regex: "ref=(.+)" });
 * if (c?.header !== "x-ref" || cutSource({ k: "cut", path: "$.json.url", stage: "value", regex: "(a)" })?.regex !== "(a)") throw new Error();
 * ```
 */
export function cutSource(cut: Cut): { header?: string; regex: string } | undefined {
  if (cut.stage !== "value") return undefined;
  if (cut.path === "$.body") return { regex: cut.regex! };
  // A JSON member's text: the capture's own path with the pattern (`{path, regex}`).
  if (/^\$\.json\b/.test(cut.path)) return { regex: cut.regex! };
  const m = cut.path.match(/^\$\.headers(?:\.([A-Za-z_][A-Za-z0-9_]*)|\['((?:[^'\\]|\\.)*)'\])$/);
  const header = m?.[1] ?? m?.[2]?.replace(/\\(.)/g, "$1");
  return header ? { header, regex: cut.regex! } : undefined;
}
