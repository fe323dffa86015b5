/**
 * Typed errors for user mistakes. A problem in a flow file is data (a
 * {@linkcode Problem}) so that every problem of a flow set can be collected and
 * reported at once; {@linkcode FlowLoadError} carries them when thrown.
 *
 * @module
 */
import { plural } from "../_util/plural.ts";

/** A location in a source file, 1-based; `length` is how many characters to underline. */
export interface Span {
  /** The file the problem is in, as reports show it. */
  file: string;
  /** Line, 1-based. */
  line: number;
  /** Column, 1-based. */
  column: number;
  /** How many characters to underline. */
  length?: number;
}

/**
 * One problem found in a flow file before anything was sent. `code` is stable
 * and documented (kebab-case, e.g. `unknown-key`), `message` is a sentence that
 * quotes the offending value, `hint` suggests the fix.
 */
export interface Problem {
  /** A stable kebab-case code, e.g. `unknown-key` (see docs/troubleshooting.md). */
  code: string;
  /** A sentence that quotes the offending value. */
  message: string;
  /** The flow file, relative to the working directory. */
  file: string;
  /** Line, 1-based. */
  line: number;
  /** Column, 1-based. */
  column: number;
  /** How many characters to underline. */
  length?: number;
  /** How to fix it. */
  hint?: string;
  /**
   * The source line the problem is on, for showing it under the message; for
   * a long line, only the part around `column`.
   */
  excerpt?: string;
  /** The column of the line where `excerpt` starts, when it is only part of the line (default 1). */
  excerptStart?: number;
  /**
   * On a `too-many-problems` problem: how many problems were found but not
   * listed, so totals can still count them.
   */
  omitted?: number;
  /** On a `too-many-problems` problem: files with problems of which none is listed. */
  omittedFiles?: number;
  /**
   * Set on a problem that another one causes and a flow set lists too (an
   * include of a file that has problems, an include cycle among them): a set
   * lists only the cause, at the place to fix; loading one file alone still
   * returns it.
   */
  followOn?: boolean;
}

/**
 * Thrown by the loaders when one or more flow files have problems; the CLI
 * prints every problem and exits 2 without sending a request.
 *
 * @example
 * ```ts
 * import { FlowLoadError } from "./errors.ts";
 * const error = new FlowLoadError([
 *   { code: "missing-key", message: "Missing key \"name\".", file: "a.yaml", line: 1, column: 1 },
 * ]);
 * if (error.problems.length !== 1) throw new Error("expected one problem");
 * ```
 */
export class FlowLoadError extends Error {
  /** Always `flow-load`; each problem carries its own code. */
  readonly code = "flow-load";
  /** Every problem found, ordered by file, line and column. */
  readonly problems: Problem[];

  /** Wraps the problems of a flow set. */
  constructor(problems: Problem[]) {
    const count = problems.length;
    super(`${plural(count, "problem")} in the flow files; nothing was sent.`);
    this.name = "FlowLoadError";
    this.problems = problems;
  }
}

/**
 * A mistake in how the runner was called (arguments, paths, report
 * destinations): exit code 2, printed without a stack trace.
 *
 * @example
 * ```ts
 * import { UsageError } from "./errors.ts";
 * const error = new UsageError("bad-option", "Unknown option \"--verbsoe\".", "Did you mean \"--verbose\"?");
 * if (error.code !== "bad-option") throw new Error(error.code);
 * ```
 */
export class UsageError extends Error {
  /** A stable kebab-case code. */
  readonly code: string;
  /** How to fix it. */
  readonly hint?: string;

  /** Creates a usage error with its code, message and hint. */
  constructor(code: string, message: string, hint?: string) {
    super(message);
    this.name = "UsageError";
    this.code = code;
    this.hint = hint;
  }
}

/**
 * A syntax error inside one string of a flow (an expression or a JSONPath),
 * with the offset of the problem in that string so the loader can point at
 * the exact column.
 *
 * @example
 * ```ts
 * import { SyntaxAtError } from "./errors.ts";
 * const error = new SyntaxAtError("bad-path", "Invalid JSONPath.", 3, "Paths start at $.");
 * if (error.offset !== 3 || error.code !== "bad-path") throw new Error();
 * ```
 */
export class SyntaxAtError extends Error {
  /** A stable kebab-case problem code. */
  readonly code: string;
  /** Offset in the string where the problem starts. */
  readonly offset: number;
  /** How to fix it. */
  readonly hint?: string;

  constructor(code: string, message: string, offset: number, hint?: string) {
    super(message);
    this.name = "SyntaxAtError";
    this.code = code;
    this.offset = offset;
    this.hint = hint;
  }
}
