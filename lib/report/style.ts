/**
 * ANSI styling of console text, switched off for `--no-color`, `NO_COLOR`
 * or output that is not a terminal. Its own module so that every piece of
 * the console (flow blocks, step details, the progress line, problems)
 * styles text the same way without importing the console reporter.
 *
 * @module
 */

/** ANSI styling that can be switched off (`--no-color`, `NO_COLOR`, not a TTY). */
export interface Style {
  /** Passed. */
  green(s: string): string;
  /** Failed. */
  red(s: string): string;
  /** Skipped, hints. */
  yellow(s: string): string;
  /** Secondary text: durations, positions. */
  dim(s: string): string;
  /** File names. */
  bold(s: string): string;
}

/**
 * Returns styling functions; with `enabled` false they return text unchanged.
 *
 * @example
 * ```ts
 * import { style } from "./style.ts";
 * if (style(false).red("x") !== "x" || style(true).red("x") === "x") throw new Error();
 * ```
 */
export function style(enabled: boolean): Style {
  const code = (open: number, close: number) => (s: string) =>
    enabled ? `\x1b[${open}m${s}\x1b[${close}m` : s;
  return {
    green: code(32, 39),
    red: code(31, 39),
    yellow: code(33, 39),
    dim: code(2, 22),
    bold: code(1, 22),
  };
}
