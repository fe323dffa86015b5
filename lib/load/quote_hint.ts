/**
 * Values YAML reads as another type than the text written: `1.10` is the
 * number 1.1, `01234` the number 1234, `true` a boolean. Where flowrun wants
 * text (a name, a header, a var put into a URL) the fix is to quote it, and
 * the hint gives the quoted form.
 *
 * @module
 */
import type { Node, Scalar } from "yaml";
import { isScalar } from "./nodes.ts";
import type { Entry } from "./entry.ts";

/** The loading file's text and problems (context.ts's Loading, which uses this module). */
interface Source {
  readonly text: string;
  problem(code: string, message: string, node: Node | null, hint?: string): void;
}

/** The text of a plain (unquoted) scalar that YAML did not read as a string, as written. */
function plainNonString(ctx: Source, node: Node | null | undefined): string | undefined {
  if (!isScalar(node) || typeof node.value === "string" || node.type !== "PLAIN") return undefined;
  const range = node.range;
  const text = range ? ctx.text.slice(range[0], range[1]) : undefined;
  return text && text.length <= 200 && !/[\n"\\]/.test(text) ? text : undefined;
}

/**
 * `Quote it: "text"` for an unquoted item of a list YAML read as a number,
 * boolean, null or date; undefined for any other node.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { problems } = loadFlow('name: f\ntags: [1.10]\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n', "f.yaml");
 * if (!problems[0]?.hint?.startsWith('Quote it: "1.10"')) throw new Error(problems[0]?.hint);
 * ```
 */
export function quoteItemHint(ctx: Source, node: Node | null | undefined): string | undefined {
  const text = plainNonString(ctx, node);
  return text === undefined ? undefined : `Quote it: "${text}".`;
}

/**
 * `Quote it: key: "text"` for an unquoted value YAML read as a number,
 * boolean, null or date; undefined for any other node.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { problems } = loadFlow('name: 1.10\nsteps:\n  - name: s\n    request: {url: "http://x.test"}\n', "f.yaml");
 * if (problems[0]?.hint !== 'Quote it: name: "1.10".') throw new Error(problems[0]?.hint);
 * ```
 */
export function quoteHint(
  ctx: Source,
  node: Node | null | undefined,
  key: string,
): string | undefined {
  const text = plainNonString(ctx, node);
  return text === undefined ? undefined : `Quote it: ${key}: "${text}".`;
}

/**
 * Whether `entry` holds a number written otherwise than the number reads
 * back (`1.10`, `01234`, `1e3`, `+1`), where the value is used as text: then
 * the text written is lost, so it is a problem whose hint quotes it.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { problems } = loadFlow(
 *   'name: f\nvars: {version: 1.10}\nsteps:\n  - name: s\n    request: {url: "http://x.test/${version}"}\n',
 *   "f.yaml",
 * );
 * if (problems[0]?.hint !== 'Quote it: version: "1.10". Or write 1.1 for the number.') throw new Error(problems[0]?.hint);
 * ```
 */
export function lossyNumber(ctx: Source, entry: Entry, what: string): boolean {
  const text = plainNonString(ctx, entry.value);
  const value = (entry.value as Scalar | null)?.value;
  if (text === undefined || typeof value !== "number" || String(value) === text) return false;
  // Past 2^53 or not finite is out-of-range already: one mistake, one problem.
  if (!Number.isFinite(value) || Math.abs(value) > Number.MAX_SAFE_INTEGER) return false;
  ctx.problem(
    "wrong-type",
    `${what} is written ${text}, which YAML reads as the number ${value}: the text ${text} would be lost.`,
    entry.value,
    `Quote it: ${entry.key}: "${text}". Or write ${value} for the number.`,
  );
  return true;
}
