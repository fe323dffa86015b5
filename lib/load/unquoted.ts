/**
 * Problems that must not quote what they are about: a foreign file (an include, a check file,
 * `--auth-file`) that is not YAML of its kind may be a credentials file, so it is named and never
 * quoted; a credential refused for being written in a flow is not printed again by the message
 * that refuses it.
 *
 * @module
 */
import type { Problem } from "../model/errors.ts";

/**
 * The one problem of a foreign file that is not YAML of its kind: named, never quoted.
 *
 * @example
 * ```ts
 * import { opaqueProblem } from "./unquoted.ts";
 * const p = opaqueProblem("the included file", "x/netrc", "wrong-type", 1, 1);
 * if (!p.message.startsWith("The included file x/netrc is not a YAML map") || p.excerpt) throw new Error();
 * ```
 */
export function opaqueProblem(
  what: string,
  file: string,
  code: string,
  line: number,
  column: number,
): Problem {
  return {
    code,
    message: `${what.charAt(0).toUpperCase()}${what.slice(1)} ${file} is not ${
      code === "yaml-syntax" ? "YAML" : "a YAML map"
    }: its text is not shown, since such a file may hold anything.`,
    file,
    line,
    column,
    length: 1,
    hint: "Check the path: it names a file that is not what it should be.",
  };
}

/**
 * `problem` with the value it underlines replaced by `***` in its excerpt (the carets then
 * underline the three stars).
 *
 * @example
 * ```ts
 * import { conceal } from "./unquoted.ts";
 * const p = { code: "c", message: "m", file: "f", line: 1, column: 8, length: 3, excerpt: "token: abc" };
 * conceal(p);
 * if (p.excerpt !== "token: ***") throw new Error(p.excerpt);
 * ```
 */
export function conceal(problem: Problem): void {
  if (problem.excerpt === undefined) return;
  const at = problem.column - (problem.excerptStart ?? 1);
  if (at < 0 || at >= problem.excerpt.length) return;
  const end = Math.min(problem.excerpt.length, at + Math.max(1, problem.length ?? 1));
  problem.excerpt = `${problem.excerpt.slice(0, at)}***${problem.excerpt.slice(end)}`;
  problem.length = 3;
}
