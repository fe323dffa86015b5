/**
 * The one name rule: what a var, capture, output, data column, `with:` key
 * or `--var` may be called so that a `${…}` can reference it. Every stage
 * that accepts such a name (the loader, the expression parser, the command
 * line) tests it here, so the rule cannot drift between them.
 *
 * Other rules that look alike are not this one: shell variable names
 * (`http/curl.ts`, no `-`), JSONPath members (`convert/spelling.ts`, no `-`)
 * and YAML keys that need no quotes (`convert/yaml_out.ts`).
 *
 * @module
 */

/**
 * A name a `${…}` can reference: a letter or `_`, then letters, digits, `_`
 * and `-`.
 *
 * @example
 * ```ts
 * import { NAME_PATTERN } from "./names.ts";
 * if (!NAME_PATTERN.test("order_id-2") || NAME_PATTERN.test("2nd")) throw new Error();
 * ```
 */
export const NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/**
 * Whether `text` is a name a `${…}` can reference.
 *
 * @example
 * ```ts
 * import { isName } from "./names.ts";
 * if (!isName("user_id") || isName("a.b") || isName("")) throw new Error();
 * ```
 */
export function isName(text: string): boolean {
  return NAME_PATTERN.test(text);
}

/**
 * The hint for a name that breaks the rule, with an example of a good one;
 * var names (flow vars, data columns, vars files) also say how to start.
 *
 * @example
 * ```ts
 * import { nameHint } from "./names.ts";
 * if (nameHint("order_id") !== 'Use letters, digits, "_" and "-", e.g. order_id.') throw new Error();
 * if (!nameHint("user_id", true).includes(", starting with a letter, e.g. user_id.")) throw new Error();
 * ```
 */
export function nameHint(example: string, isVar = false): string {
  return `Use letters, digits, "_" and "-"${
    isVar ? ", starting with a letter" : ""
  }, e.g. ${example}.`;
}
