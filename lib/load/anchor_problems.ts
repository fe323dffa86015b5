/**
 * Mistakes inside an anchor (`&name`): each is reported where an alias reads
 * it, naming the anchor, and once however many aliases read it — one
 * mistake, one problem.
 *
 * @module
 */
import type { Node } from "yaml";

/**
 * The mistakes inside anchors reported so far in one file.
 *
 * @example
 * ```ts
 * import { AnchorProblems } from "./anchor_problems.ts";
 * const anchors = new AnchorProblems();
 * const alias = { source: "req" } as never;
 * const first = anchors.message("bad-url", "Bad URL.", alias, { line: 2, column: 19 });
 * if (first !== 'Bad URL (in the anchor "&req" at line 2:19).') throw new Error(first);
 * if (anchors.message("bad-url", "Bad URL.", alias, { line: 2, column: 19 }) !== undefined) {
 *   throw new Error("reported twice");
 * }
 * ```
 */
export class AnchorProblems {
  readonly #seen = new Set<string>();

  /**
   * The message of the mistake with `code` at `at` (inside the anchor that
   * `alias` reads), naming the anchor; `undefined` when an earlier alias
   * reported it already.
   */
  message(
    code: string,
    message: string,
    alias: Node,
    at: { line: number; column: number },
  ): string | undefined {
    const key = `${code} ${at.line}:${at.column}`;
    if (this.#seen.has(key)) return undefined;
    this.#seen.add(key);
    const name = (alias as { source?: string }).source;
    const where = `in the anchor "&${name}" at line ${at.line}:${at.column}`;
    const plain = message.replace(/\.$/, "");
    return plain.endsWith(")") ? `${plain.slice(0, -1)}; ${where}).` : `${plain} (${where}).`;
  }
}
