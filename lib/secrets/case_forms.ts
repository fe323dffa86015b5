/**
 * The other cases a server may echo a secret in: a code upper-cased, an identifier folded to lower
 * case, a name title-cased or with its first letter capital for display, a hyphenated key turned
 * into a camelCase or PascalCase field. A random secret is as readable in any of them; an ordinary
 * word's other cases are words of their own.
 *
 * @module
 */
import { isOrdinaryWord } from "./public_parts.ts";

/** `s` with its first character capital, the rest as it is. */
const capitalFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** Each letter after a character that is no letter capital, the others small (Python's `title`). */
const titled = (s: string) =>
  s.toLowerCase().replace(
    /(^|[^\p{L}])(\p{L})/gu,
    (_, b: string, c: string) => b + c.toUpperCase(),
  );

/** The separators a camelCase field drops, each letter after them made capital. */
const SEPARATED = /[-_ ]+([\p{L}\p{N}])/gu;

/** `s` joined at `-`, `_` and spaces, the letter after each capital. */
const camel = (s: string) => s.replace(SEPARATED, (_, c: string) => c.toUpperCase());

/** The camelCase and PascalCase forms of `s` and of `s` lower-cased, when it has separators. */
function joinedForms(s: string): string[] {
  if (!/[-_ ][\p{L}\p{N}]/u.test(s)) return [];
  const forms = [camel(s), camel(s.toLowerCase())];
  return [...forms, ...forms.map(capitalFirst)];
}

/**
 * The value in each other case a server echoes a secret in, where that changes it: upper- and
 * lower-cased, first letter capital (the rest as it is, or small), title-cased, and camelCase or
 * PascalCase when it joins parts with `-`, `_` or spaces. Not of an ordinary word (a password
 * `admin`): its other cases are words of their own.
 *
 * @example
 * ```ts
 * import { caseForms } from "./case_forms.ts";
 * const forms = caseForms("tok_9fK2");
 * for (const f of ["TOK_9FK2", "tok_9fk2", "Tok_9fK2", "Tok_9fk2", "tok9fK2", "Tok9fk2", "tok9fk2"]) {
 *   if (!forms.includes(f)) throw new Error(f + " not in " + forms.join());
 * }
 * if (caseForms("admin").length !== 0 || caseForms("123456").length !== 0) throw new Error();
 * ```
 */
export function caseForms(value: string): string[] {
  if (isOrdinaryWord(value.trim())) return [];
  const lower = value.toLowerCase();
  const forms = new Set([
    value.toUpperCase(),
    lower,
    capitalFirst(value),
    capitalFirst(lower),
    titled(value),
    ...joinedForms(value),
  ]);
  // A fold that changes a letter's length (`ß` to `SS`) makes another text, no longer lined up.
  const joined = value.replace(SEPARATED, "$1").length;
  return [...forms].filter((f) =>
    f !== value && f.length >= 4 && (f.length === value.length || f.length === joined)
  );
}
