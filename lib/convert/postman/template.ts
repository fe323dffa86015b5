/**
 * Postman's `{{name}}` placeholders → flowrun expressions. Literal `${` in
 * the text is escaped (`$${`), so a value Postman sends as written is sent
 * as written.
 *
 * @module
 */

import { beforeExpression } from "../dollar.ts";

/**
 * The names `text` uses, in order, each once.
 *
 * @example
 * ```ts
 * import { placeholders } from "./template.ts";
 * if (placeholders("{{a}}/x/{{b}}?{{a}}").join() !== "a,b") throw new Error();
 * ```
 */
export function placeholders(text: string): string[] {
  const names = new Set<string>();
  for (const m of text.matchAll(/\{\{([^{}]+)\}\}/g)) names.add(m[1].trim());
  return [...names];
}

/**
 * `text` with each `{{name}}` replaced by what `resolve` gives (from the
 * trimmed name and the placeholder as written), the rest escaped for
 * flowrun's `${…}`.
 *
 * @example
 * ```ts
 * import { render } from "./template.ts";
 * const out = render("{{base}}/a?p=${x}", (n) => `\${ENV.${n.toUpperCase()}}`);
 * if (out !== "${ENV.BASE}/a?p=$${x}") throw new Error(out);
 * if (render("$" + "{{n}}", () => "${vars.n}") !== "${vars.dollar}${vars.n}") throw new Error();
 * ```
 */
export function render(
  text: string,
  resolve: (name: string, written: string) => string,
): string {
  let out = "";
  let at = 0;
  for (const m of text.matchAll(/\{\{([^{}]+)\}\}/g)) {
    // The placeholder as written goes along: one Postman sends as written keeps its spacing.
    const value = resolve(m[1].trim(), m[0]);
    const before = escape(text.slice(at, m.index));
    // "$" then "${vars.x}" would be the escape "$${"; "$" then "{…" an expression.
    out += (/^[${]/.test(value) ? beforeExpression(before) : before) + value;
    at = m.index + m[0].length;
  }
  return out + escape(text.slice(at));
}

function escape(text: string): string {
  return text.replaceAll("${", () => "$${");
}
