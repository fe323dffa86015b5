/**
 * `pm.variables.replaceIn` of text with placeholders and words around them:
 * `'{{$randomFirstName}} {{$randomLastName}}'`, `'{{prefix}}-{{$randomInt}}'`, `'user-{{$randomInt}}'`. Newman puts each
 * placeholder's value in its place and keeps the words, so the result is always text: the parts
 * joined, a made value as made text (the flow makes it when the step runs), a variable as its
 * value, a word as written.
 *
 * @module
 */
import { asText } from "./concat.ts";
import { sharesOf } from "./share.ts";
import type { Sym } from "./sym.ts";

/** A placeholder, `{{name}}`, as Postman writes one (no braces inside). */
const PLACEHOLDER = /\{\{([^{}]+)\}\}/g;

/**
 * `text`'s words and placeholders in order, each placeholder read by `variable`; undefined when
 * one reads as nothing this converter can say (a name nothing defines, which Newman keeps as
 * written and a user may still give), or a value that is no text, made or variable.
 */
function partsOf(text: string, variable: (name: string) => Sym | undefined): Sym[] | undefined {
  const parts: Sym[] = [];
  let at = 0;
  for (const m of text.matchAll(PLACEHOLDER)) {
    if (m.index > at) parts.push({ k: "lit", value: text.slice(at, m.index) });
    const value = variable(m[1].trim());
    if (!value || asText(value) === undefined) return undefined;
    parts.push(value);
    at = m.index + m[0].length;
  }
  if (at < text.length) parts.push({ k: "lit", value: text.slice(at) });
  return parts;
}

/**
 * Text holding placeholders with words or other placeholders beside them, as `replaceIn` makes
 * it: made text when a part is made (`{k: "gen"}`), text joined from words and variables
 * (`{k: "cat"}`) otherwise, one literal when every part is known now; undefined for text that is
 * one placeholder alone or none (library.ts reads those) or a part that cannot be said.
 *
 * @example
 * ```ts
 * import { joinedPlaceholders } from "./replace_joined.ts";
 * import type { Sym } from "./sym.ts";
 * const read = (n: string): Sym | undefined =>
 *   n === "$randomInt" ? { k: "gen", text: "${RANDOM.INT}" }
 *   : n === "prefix" ? { k: "var", name: n, expr: "${vars.prefix}" } : undefined;
 * const made = joinedPlaceholders("{{prefix}}-{{$randomInt}}", read);
 * if (made?.k !== "gen" || made.text !== "${vars.prefix}-${RANDOM.INT}") throw new Error(JSON.stringify(made));
 * if (joinedPlaceholders("{{prefix}} {{prefix}}", read)?.k !== "cat") throw new Error();
 * if (joinedPlaceholders("{{nowhere}} {{prefix}}", read) !== undefined) throw new Error();
 * if (joinedPlaceholders("{{prefix}}", read) !== undefined) throw new Error();
 * if (joinedPlaceholders("id-{{prefix}}", read)?.k !== "cat") throw new Error();
 * ```
 */
export function joinedPlaceholders(
  text: string,
  variable: (name: string) => Sym | undefined,
): Sym | undefined {
  const found = [...text.matchAll(PLACEHOLDER)];
  if (found.length === 0 || (found.length === 1 && found[0][0] === text)) return undefined;
  const parts = partsOf(text, variable);
  if (!parts) return undefined;
  if (parts.every((p) => p.k === "lit")) {
    return { k: "lit", value: parts.map((p) => p.k === "lit" ? String(p.value) : "").join("") };
  }
  if (!parts.some((p) => p.k === "gen")) return { k: "cat", parts };
  return { k: "gen", text: parts.map((p) => asText(p)!).join(""), ...sharesOf(parts) };
}
