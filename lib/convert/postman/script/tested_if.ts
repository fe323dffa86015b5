/**
 * `if (tests["200"] = responseCode.code === 200) { … }` (the legacy sandbox's
 * idiom): the assignment is a check, and its value the block's condition.
 *
 * @module
 */
import type { Node } from "./parse.ts";
import type { Translation } from "./translation.ts";
import type { Untranslated } from "./untranslated.ts";

/** What of the script's walk the idiom uses (translate.ts's translator). */
export interface TestedIfWalk {
  readonly out: Translation;
  readonly comments: Untranslated;
  testsAssignment(node: Node, e: Node): void;
  ifStatement(node: Node, name: string | undefined, depth: number): void;
  skip(node: Node): void;
}

/**
 * Walks `node`, an `if` whose test assigns `tests[…]`: the check, then the
 * block under its value; the whole `if` stays as written when the check is
 * not understood.
 *
 * @example
 * ```ts
 * import { translateScript } from "./translate.ts";
 * const t = translateScript(
 *   "if (tests['ok'] = responseCode.code === 200) { tests['json'] = responseCode.code !== 204; }",
 *   () => ({ k: "lit", value: undefined }),
 * );
 * if (t.translated !== 2) throw new Error(JSON.stringify(t));
 * ```
 */
export function testedIf(t: TestedIfWalk, node: Node, name: string | undefined, depth: number) {
  const before = {
    translated: t.out.translated,
    lines: t.out.untranslated.length,
    assertions: t.out.untranslatedAssertions,
  };
  t.testsAssignment(node.test, node.test);
  if (t.out.translated > before.translated) {
    return t.ifStatement({ ...node, test: node.test.right }, name, depth);
  }
  // The check is not understood: the whole `if` stays as written.
  t.comments.truncate(before.lines);
  t.out.untranslatedAssertions = before.assertions;
  t.skip(node);
}
