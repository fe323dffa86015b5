/**
 * Variables whose values name other variables (`apiBase` = `{{baseUrl}}/api`,
 * as collections and environments are often written): Postman resolves
 * them when it sends. Written as they are, a flow var held `{{baseUrl}}`,
 * which `flowrun validate` refuses as another tool's expression, a value
 * holding `${` was read as an expression, and `{{apiBase}}` at a URL's start
 * became an environment variable with no fallback, its value taken for a
 * secret.
 *
 * @module
 */

import { render } from "./template.ts";

/** How many variables deep a value's references are followed, as Postman bounds its own. */
const MAX_NESTING = 16;
/** The longest a value may grow by resolving: `a` = `{{b}}{{b}}`, `b` = `{{c}}{{c}}`, … doubles. */
const MAX_RESOLVED = 64 * 1024;

/**
 * The values with each `{{name}}` of a variable that has a value and is not
 * a secret put in place, as Postman sends them; a reference to a secret, to
 * no variable or back to itself stays as written (Postman sends the last two
 * as written too).
 *
 * @example
 * ```ts
 * import { resolveNested } from "./nested_vars.ts";
 * const values = new Map([["baseUrl", "http://h:8080"], ["apiBase", "{{baseUrl}}/api"], ["a", "{{a}}"]]);
 * resolveNested(values, (n) => n === "token");
 * if (values.get("apiBase") !== "http://h:8080/api" || values.get("a") !== "{{a}}") throw new Error();
 * ```
 */
export function resolveNested(
  values: Map<string, string>,
  secret: (name: string) => boolean,
): void {
  const raw = new Map(values);
  const expand = (text: string, seen: string[]): string =>
    text.replace(/\{\{([^{}]+)\}\}/g, (whole, inner: string) => {
      const name = inner.trim();
      const value = raw.get(name);
      if (value === undefined || secret(name) || seen.includes(name)) return whole;
      if (seen.length >= MAX_NESTING) return whole;
      return expand(value, [...seen, name]);
    });
  for (const [name, value] of raw) {
    if (!value.includes("{{")) continue;
    const resolved = expand(value, [name]);
    if (resolved.length <= MAX_RESOLVED) values.set(name, resolved);
  }
}

/** The var holding a literal `{`, for a `{{name}}` Postman would send as written. */
export const LBRACE_VAR = "lbrace";

/**
 * A `{{…}}` Postman sends as written, as flow text: its `{` from the var
 * {@linkcode LBRACE_VAR} (a flow holds no `{{`), `${` escaped.
 *
 * @example
 * ```ts
 * import { asWritten } from "./nested_vars.ts";
 * if (asWritten("{{ a | upcase }}") !== "${vars.lbrace}{ a | upcase }}") throw new Error();
 * ```
 */
export function asWritten(written: string): string {
  return `\${vars.${LBRACE_VAR}}${written.slice(1).replaceAll("${", () => "$${")}`;
}

/**
 * The flow text of a `{{…}}` Postman never looks up: it looks the text between
 * the braces up as it is, so `{{ x }}` is no variable, even where `x` is one,
 * and goes out as written (Newman sends `{{ self.name | upcase }}` to a server
 * that renders it). `undefined` when `written` is `{{name}}` itself.
 *
 * @example
 * ```ts
 * import { notLookedUp } from "./nested_vars.ts";
 * if (notLookedUp("x", "{{x}}") !== undefined) throw new Error();
 * if (notLookedUp("x", "{{ x }}") !== "${vars.lbrace}{ x }}") throw new Error();
 * ```
 */
export function notLookedUp(name: string, written?: string): string | undefined {
  return written !== undefined && written.slice(2, -2) !== name ? asWritten(written) : undefined;
}

/**
 * A flow var's default from a variable's value: `${` written `$${`; a
 * `{{name}}` Postman resolves at run time (a secret, a generated value) is
 * what `resolve` gives; one it would send as written (no such variable, or
 * a cycle) keeps its text, its `{` from the var {@linkcode LBRACE_VAR}.
 *
 * @example
 * ```ts
 * import { varDefault } from "./nested_vars.ts";
 * const out = varDefault("Bearer {{token}} {{ no | pe }} ${x}", (n) => n === "token", () => "${ENV.TOKEN}");
 * if (out !== "Bearer ${ENV.TOKEN} ${vars.lbrace}{ no | pe }} $${x}") throw new Error(out);
 * ```
 */
export function varDefault(
  value: string,
  resolvesAtRun: (name: string) => boolean,
  resolve: (name: string) => string,
): string {
  return render(
    value,
    (name, written) => resolvesAtRun(name) ? resolve(name) : asWritten(written),
  );
}
