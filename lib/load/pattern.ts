/**
 * A regular expression a flow writes (a `matches` check, a `regex` capture),
 * compiled when the flow loads: an invalid one is one `bad-regex` problem,
 * worded the same wherever it is written.
 *
 * @module
 */
import type { Node } from "yaml";
import { compilePattern } from "../_util/regex.ts";
import { BAD_REGEX_HINT, badRegexMessage } from "../_util/regex_problem.ts";
import type { Loading } from "./context.ts";

/**
 * The compiled pattern, or undefined with the problem reported at `node`.
 *
 * @example
 * ```ts
 * import { Loading } from "./context.ts";
 * import { loadPattern } from "./pattern.ts";
 * const ctx = new Loading("f.yaml", {});
 * if (!loadPattern(ctx, "^a+$", null)?.test("aa")) throw new Error();
 * if (loadPattern(ctx, "(", null) !== undefined) throw new Error();
 * if (!ctx.problems[0].message.startsWith('Invalid regular expression "(": ')) throw new Error();
 * ```
 */
export function loadPattern(ctx: Loading, source: string, node: Node | null): RegExp | undefined {
  try {
    return compilePattern(source);
  } catch (error) {
    ctx.problem("bad-regex", badRegexMessage(source, error), node, BAD_REGEX_HINT);
    return undefined;
  }
}
