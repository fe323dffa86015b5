/**
 * Statement shapes that decide whether a script's assertion is a check: the
 * legacy `tests["…"] = …`; a `try` whose `catch`
 * swallows what its block throws (`try { … pm.expect(json).to.have.property("id") } catch (e) {}`,
 * outside any `pm.test`: Newman fails nothing when the expectation does not
 * hold, so it is no check), and a script not translated at all.
 *
 * @module
 */
import type { Node } from "./parse.ts";
import type { Translation } from "./translation.ts";
import { countAssertions } from "./untranslated.ts";

/**
 * Whether `node` is a `try` whose `catch` swallows what its block throws (it throws nothing again).
 *
 * @example
 * ```ts
 * import { swallowingTry } from "./caught.ts";
 * import { parseScript } from "./parse.ts";
 * const source = "try { pm.expect(1).to.equal(2); } catch (e) {}";
 * const p = parseScript(source);
 * if (!p.ok || !swallowingTry(p.program.body[0], source)) throw new Error();
 * const again = "try { a(); } catch (e) { throw e; }";
 * const q = parseScript(again);
 * if (!q.ok || swallowingTry(q.program.body[0], again)) throw new Error();
 * ```
 */
export function swallowingTry(node: Node, source: string): boolean {
  const handler = node.handler;
  return handler !== null && handler !== undefined &&
    !/\bthrow\b/.test(source.slice(handler.start, handler.end));
}

/**
 * A script left wholly as comments, with why, every assertion in it counted as not translated.
 *
 * @example
 * ```ts
 * import { translateScriptFailed } from "./caught.ts";
 * const t = translateScriptFailed("pm.expect(1).to.equal(1);", "it is nested too deeply");
 * if (t.untranslated[0] !== "(not translated: it is nested too deeply)" || t.untranslatedAssertions < 1) throw new Error();
 * ```
 */
export function translateScriptFailed(source: string, why: string): Translation {
  return {
    checks: [],
    captures: [],
    sets: [],
    dropped: [],
    untranslated: [
      `(not translated: ${why})`,
      ...source.split(/\r?\n/).map((l) => l.trim()).filter(Boolean),
    ],
    translated: 0,
    untranslatedAssertions: countAssertions(source),
  };
}

/**
 * `tests["…"] = …`: the legacy sandbox's check.
 *
 * @example
 * ```ts
 * import { isTestsAssignment } from "./caught.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript('tests["ok"] = responseCode.code === 200');
 * if (!p.ok || !isTestsAssignment(p.program.body[0].expression)) throw new Error();
 * ```
 */
export function isTestsAssignment(node: Node): boolean {
  return node.type === "AssignmentExpression" && node.operator === "=" &&
    node.left.type === "MemberExpression" && node.left.object.type === "Identifier" &&
    node.left.object.name === "tests";
}
