/**
 * Tag expressions for `--tag`: tag names joined by `and`, `or`, `not` and
 * parentheses (`smoke and not slow`, `(api or ui) and not flaky`), like
 * runn's labels. `not` binds tightest, then `and`, then `or`; a comma is
 * `or` (`--tag smoke,critical`). Names are letters, digits, `_`, `-`, `.`,
 * `:` and `/`, compared exactly.
 *
 * @module
 */
import { UsageError } from "../model/errors.ts";

/** A compiled tag expression: whether a set of tags satisfies it. */
export type TagTest = (tags: ReadonlySet<string>) => boolean;

const TOKEN = /\s*(\(|\)|,|[A-Za-z0-9_.:/-]+)/y;

/**
 * How deep parentheses and `not` may nest in a tag expression: 64 levels.
 * The parser and the test it builds recurse once per level, so `(((…a…)))`
 * 50,000 deep overflowed the stack (exit 3).
 *
 * @example
 * ```ts
 * import { MAX_TAG_NESTING } from "./tags.ts";
 * if (MAX_TAG_NESTING !== 64) throw new Error();
 * ```
 */
export const MAX_TAG_NESTING = 64;
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
  let depth = 0;
  const peek = () => tokens[i]?.text;
  const deeper = () => {
    if (++depth > MAX_TAG_NESTING) {
      throw bad(
        expression,
        tokens[i].at,
        `parentheses and "not" nest more than ${MAX_TAG_NESTING} levels deep here`,
      );
    }
  };
  // A chain of "or" (or "and") is a list, tested in a loop: as nested functions, 50,000
  // names joined by "or" overflowed the stack when a flow's tags were tested.
  const or = (): TagTest => {
    const parts = [and()];
    while (peek() === "or" || peek() === ",") {
      i++;
      parts.push(and());
    }
    return parts.length === 1 ? parts[0] : (tags) => parts.some((part) => part(tags));
  };
  const and = (): TagTest => {
    const parts = [not()];
    while (peek() === "and") {
      i++;
      parts.push(not());
    }
    return parts.length === 1 ? parts[0] : (tags) => parts.every((part) => part(tags));
  };
  const not = (): TagTest => {
    if (peek() === "not") {
      deeper();
      i++;
      const inner = not();
      depth--;
      return (tags) => !inner(tags);
    }
    return atom();
  };
  const atom = (): TagTest => {
    const token = tokens[i];
    if (!token) throw bad(expression, expression.length, "a tag name is missing at the end");
    if (token.text === "(") {
      deeper();
      i++;
      const inner = or();
      depth--;
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
