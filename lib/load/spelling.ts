/**
 * What names, tokens and expressions may look like in a flow: HTTP tokens,
 * the names expressions reserve, and other tools' placeholders that would be
 * sent as they are. The rule for a var, capture or output name itself is
 * `model/names.ts`, shared with expressions and `--var`.
 *
 * @module
 */

/** Names that expressions reserve; a var may not take them. */
export const RESERVED = new Set(["RUN_ID", "TRACE_ID", "ENV", "RANDOM", "vars", "steps"]);

/** An HTTP token: what a method or a header name may be. */
export const METHOD = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Placeholders of other tools that would be sent literally: `{{token}}`
 * (Postman, Bruno, Insomnia) and `{steps.x…}`, `{vars.x}`, `{ENV.X}` with the
 * `$` forgotten.
 */
export const FOREIGN_EXPRESSION =
  /(?<![$\w{])\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}(?!\})|(?<![$\w{])\{((?:steps|vars|ENV)\.[\w.-]+)\}/;

/**
 * Another tool's placeholder in a template's text (`{{token}}`, `{vars.x}`):
 * the problem to report (message, hint, where it is), or undefined.
 *
 * @example
 * ```ts
 * import { foreignExpression } from "./spelling.ts";
 * const found = foreignExpression("Bearer {{token}}");
 * if (found?.index !== 7 || !found.hint.startsWith("Write ${token}")) throw new Error();
 * if (foreignExpression("Bearer ${token}") !== undefined) throw new Error();
 * ```
 */
export function foreignExpression(
  text: string,
): { message: string; hint: string; index: number; length: number } | undefined {
  const foreign = FOREIGN_EXPRESSION.exec(text);
  if (!foreign) return undefined;
  const inner = (foreign[1] ?? foreign[2]).trim();
  return {
    message: `"${foreign[0]}" would be sent as it is: flowrun expressions are written \${…}.`,
    hint: `Write \${${inner}}${
      foreign[1] !== undefined && !inner.includes(".")
        ? ` (a flow var or environment variable; in spelling A \${vars.${inner}} or \${ENV.${inner}})`
        : ""
    }.`,
    index: foreign.index,
    length: foreign[0].length,
  };
}
