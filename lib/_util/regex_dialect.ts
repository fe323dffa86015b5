/**
 * A pattern written in a server language's regular-expression dialect, read
 * as ECMA-262 means it. A document generated from a server's code may copy
 * the code's validators into `pattern` as written (Django REST framework's
 * own `SchemaGenerator` does): Django's user name rule is
 * `^[\w.@+-]+\Z`, which DRF writes as `…\z`. Those escapes are no ECMA-262
 * (the `u` flag refuses them), and without `u` an identity escape `\z` is the
 * letter z: every real user name ("admin") failed the `openapi:` check, and
 * a made-up value ended in the letter ("az"). Python's, PCRE's, Java's and
 * Ruby's `\A`, `\Z` and `\z` anchor at the start and the end of the whole
 * text, which `^` and `$` do in ECMA-262 without the `m` flag; Python's
 * named groups `(?P<name>…)` and back-references `(?P=name)` are
 * ECMA-262's `(?<name>…)` and `\k<name>`; flags written first for the whole
 * pattern (`(?i)`, Python's and Java's) are a modifier group around it.
 *
 * @module
 */

/**
 * `pattern` with the other dialects' anchors and named groups spelled as
 * ECMA-262 spells them; any other text, and everything inside a character
 * class, unchanged. A pattern valid under the `u` flag holds none of them,
 * so it comes back as it was.
 *
 * @example
 * ```ts
 * import { ecmaPattern } from "./regex_dialect.ts";
 * if (ecmaPattern("^[\\w.@+-]+\\z") !== "^[\\w.@+-]+$") throw new Error();
 * if (ecmaPattern("\\A[a-z]+\\Z") !== "^[a-z]+$") throw new Error();
 * if (ecmaPattern("(?P<y>\\d{4})-(?P=y)") !== "(?<y>\\d{4})-\\k<y>") throw new Error();
 * if (ecmaPattern("^a\\\\z[\\Z]$") !== "^a\\\\z[\\Z]$") throw new Error();
 * if (ecmaPattern("(?i)^[a-z]+\\Z") !== "(?i:^[a-z]+$)") throw new Error();
 * ```
 */
export function ecmaPattern(pattern: string): string {
  // Fast path: most patterns name none of these, and this also runs on the
  // validator's helper thread for every pattern it compiles.
  if (!/\\[AZz]|\(\?P[<=]|^\(\?[isu]+\)/.test(pattern)) return pattern;
  // Python's and Java's flags for the whole pattern, written first: `(?i)a` is `(?i:a)`
  // (`u` is Python 3's default); `m` and `x` are left, as they change what follows.
  const lead = /^\(\?([isu]+)\)/.exec(pattern);
  const body = lead ? pattern.slice(lead[0].length) : pattern;
  // One token at a time: an escape (kept unless an anchor), a whole character
  // class (kept: `[\Z]` is no anchor), a named group's opening or a back-reference.
  const token = /\\[\s\S]|\[\^?\]?(?:\\[\s\S]|[^\]\\])*\]|\(\?P<|\(\?P=([A-Za-z_]\w*)\)/g;
  const out = body.replace(token, (text: string, name: string | undefined) => {
    if (name !== undefined) return `\\k<${name}>`;
    if (text === "\\A") return "^";
    if (text === "\\Z" || text === "\\z") return "$";
    return text === "(?P<" ? "(?<" : text;
  });
  const flags = [...new Set(lead?.[1].replaceAll("u", ""))].join("");
  return flags ? `(?${flags}:${out})` : out;
}
