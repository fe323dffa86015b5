/**
 * Tag expressions for `--tag`: tag names joined by `and`, `or`, `not` and
 * parentheses (`smoke and not slow`, `(api or ui) and not flaky`), like
 * runn's labels. `not` binds tightest, then `and`, then `or`; a comma is
 * `or` (`--tag smoke,critical`). Names are letters, digits, `_`, `-`, `.`,
 * `:` and `/`, compared exactly.
 *
 * @module
 */
import { UsageError } from "./errors.ts";

/** A compiled tag expression: whether a set of tags satisfies it. */
export type TagTest = (tags: ReadonlySet<string>) => boolean;

const TOKEN = /\s*(\(|\)|,|[A-Za-z0-9_.:/-]+)/y;
const NAME = /^[A-Za-z0-9_.:/-]+$/;

/**
 * Compiles a tag expression. Throws {@linkcode UsageError} `bad-tag` with the
 * position of the mistake.
 *
 * @example
 * ```ts
 * import { compileTags } from "./tags.ts";
 * const test = compileTags("(api or ui) and not slow");
 * if (!test(new Set(["api"])) || test(new Set(["api", "slow"])) || test(new Set(["db"]))) {
 *   throw new Error();
 * }
 * if (!compileTags("smoke,critical")(new Set(["critical"]))) throw new Error();
 * ```
 */
export function compileTags(expression: string): TagTest {
  const tokens: { text: string; at: number }[] = [];
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < expression.length) {
    const start = TOKEN.lastIndex;
    const m = TOKEN.exec(expression);
    if (!m) {
      if (expression.slice(start).trim() === "") break;
      const at = start +
        (expression.slice(start).length - expression.slice(start).trimStart().length);
      throw bad(expression, at, `"${expression[at]}" cannot be part of a tag name`);
    }
    tokens.push({ text: m[1], at: m.index + m[0].length - m[1].length });
  }
  let i = 0;
  const peek = () => tokens[i]?.text;
  const or = (): TagTest => {
    let left = and();
    while (peek() === "or" || peek() === ",") {
      i++;
      const right = and();
      const l = left;
      left = (tags) => l(tags) || right(tags);
    }
    return left;
  };
  const and = (): TagTest => {
    let left = not();
    while (peek() === "and") {
      i++;
      const right = not();
      const l = left;
      left = (tags) => l(tags) && right(tags);
    }
    return left;
  };
  const not = (): TagTest => {
    if (peek() === "not") {
      i++;
      const inner = not();
      return (tags) => !inner(tags);
    }
    return atom();
  };
  const atom = (): TagTest => {
    const token = tokens[i];
    if (!token) throw bad(expression, expression.length, "a tag name is missing at the end");
    if (token.text === "(") {
      i++;
      const inner = or();
      if (peek() !== ")") {
        throw bad(expression, tokens[i]?.at ?? expression.length, 'a ")" is missing');
      }
      i++;
      return inner;
    }
    if (["and", "or", "not", ")", ","].includes(token.text)) {
      throw bad(expression, token.at, `expected a tag name, got "${token.text}"`);
    }
    i++;
    return (tags) => tags.has(token.text);
  };
  const test = or();
  if (i < tokens.length) {
    throw bad(expression, tokens[i].at, `expected "and", "or" or the end, got "${tokens[i].text}"`);
  }
  return test;
}

/**
 * Whether a tag name is valid (what flows may declare).
 *
 * @example
 * ```ts
 * import { isTagName } from "./tags.ts";
 * if (!isTagName("team:payments") || isTagName("two words")) throw new Error();
 * ```
 */
export function isTagName(name: string): boolean {
  return NAME.test(name) && !["and", "or", "not"].includes(name);
}

function bad(expression: string, at: number, why: string): UsageError {
  return new UsageError(
    "bad-tag",
    `Invalid --tag "${expression}" at character ${at + 1}: ${why}.`,
    'Join tag names with "and", "or", "not" and parentheses, e.g. --tag "smoke and not slow".',
  );
}
