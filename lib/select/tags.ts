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
  const parser = new TagParser(expression, tokenize(expression));
  const test = parser.or();
  parser.end();
  return test;
}

/** One word or punctuation of a tag expression, and where it starts. */
interface Token {
  text: string;
  at: number;
}

function tokenize(expression: string): Token[] {
  const tokens: Token[] = [];
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
  return tokens;
}

/** A recursive-descent parser: `or` of `and` of `not` of a name or a parenthesised `or`. */
class TagParser {
  #i = 0;
  #depth = 0;
  constructor(readonly expression: string, readonly tokens: readonly Token[]) {}

  #peek(): string | undefined {
    return this.tokens[this.#i]?.text;
  }

  #deeper(): void {
    if (++this.#depth > MAX_TAG_NESTING) {
      throw bad(
        this.expression,
        this.tokens[this.#i].at,
        `parentheses and "not" nest more than ${MAX_TAG_NESTING} levels deep here`,
      );
    }
  }

  // A chain of "or" (or "and") is a list, tested in a loop: as nested functions, 50,000
  // names joined by "or" overflowed the stack when a flow's tags were tested.
  or(): TagTest {
    const parts = [this.#and()];
    while (this.#peek() === "or" || this.#peek() === ",") {
      this.#i++;
      parts.push(this.#and());
    }
    return parts.length === 1 ? parts[0] : (tags) => parts.some((part) => part(tags));
  }

  #and(): TagTest {
    const parts = [this.#not()];
    while (this.#peek() === "and") {
      this.#i++;
      parts.push(this.#not());
    }
    return parts.length === 1 ? parts[0] : (tags) => parts.every((part) => part(tags));
  }

  #not(): TagTest {
    if (this.#peek() !== "not") return this.#atom();
    this.#deeper();
    this.#i++;
    const inner = this.#not();
    this.#depth--;
    return (tags) => !inner(tags);
  }

  #atom(): TagTest {
    const token = this.tokens[this.#i];
    if (!token) {
      throw bad(this.expression, this.expression.length, "a tag name is missing at the end");
    }
    if (token.text === "(") return this.#group();
    if (["and", "or", "not", ")", ","].includes(token.text)) {
      throw bad(this.expression, token.at, `expected a tag name, got "${token.text}"`);
    }
    this.#i++;
    return (tags) => tags.has(token.text);
  }

  #group(): TagTest {
    this.#deeper();
    this.#i++;
    const inner = this.or();
    this.#depth--;
    if (this.#peek() !== ")") {
      throw bad(
        this.expression,
        this.tokens[this.#i]?.at ?? this.expression.length,
        'a ")" is missing',
      );
    }
    this.#i++;
    return inner;
  }

  /** Throws unless every token was read. */
  end(): void {
    const rest = this.tokens[this.#i];
    if (rest) {
      throw bad(this.expression, rest.at, `expected "and", "or" or the end, got "${rest.text}"`);
    }
  }
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
