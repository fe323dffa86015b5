/**
 * A WebSocket or SSE step's `until` (a JSONPath filter over `[message]`) as
 * data the processor evaluates on each message: a list of alternatives
 * (`||`), each a list of tests (`&&`) of a plain member chain of the message
 * against a literal. That covers what the kinds' docs write
 * (`$[?@.type == 'done']`, `$[?@.progress >= 100]`, `$[?@.ticket]`); any
 * other filter has no such form and the caller notes it. Data, not code, so
 * nothing of a flow becomes code in the processor.
 *
 * @module
 */

/** One test of a message: the member chain it reads, the operator, the literal. */
export interface UntilTest {
  at: string[];
  op: "exists" | "==" | "!=" | "<" | "<=" | ">" | ">=";
  value?: unknown;
}

/** Alternatives of conjunctions: holds when every test of some alternative does. */
export type UntilData = UntilTest[][];

const CHAIN = String.raw`@((?:\.[A-Za-z_][A-Za-z0-9_]*)*)`;
const LITERAL = String.raw`'[^'\\]*'|"[^"\\]*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null`;
const TEST = new RegExp(`^${CHAIN}(?:\\s*(==|!=|<=|>=|<|>)\\s*(${LITERAL}))?$`);

/** A literal as its value: quoted text without its quotes, else JSON. */
function literalOf(text: string): unknown {
  return text.startsWith("'") || text.startsWith('"') ? text.slice(1, -1) : JSON.parse(text);
}

/** One test, or undefined when it is not a chain against a literal. */
function testOf(text: string): UntilTest | undefined {
  const found = TEST.exec(text.trim());
  if (!found) return undefined;
  const at = found[1].split(".").slice(1);
  if (found[2] === undefined) return at.length ? { at, op: "exists" } : undefined;
  return { at, op: found[2] as UntilTest["op"], value: literalOf(found[3]) };
}

/**
 * The data of `until`'s source, or undefined when it has none (then the
 * caller notes it). Quoted literals may not hold `&`, `|` or `]`.
 *
 * @example
 * ```ts
 * import { untilData } from "./until.ts";
 * const data = untilData("$[?@.type == 'done' || @.n >= 3 && @.ok]");
 * if (JSON.stringify(data) !== '[[{"at":["type"],"op":"==","value":"done"}],' +
 *   '[{"at":["n"],"op":">=","value":3},{"at":["ok"],"op":"exists"}]]') throw new Error(JSON.stringify(data));
 * if (untilData("$[?match(@.type, 'd.*')]") !== undefined) throw new Error();
 * ```
 */
export function untilData(source: string): UntilData | undefined {
  const filter = /^\$\[\?(.*)\]$/.exec(source.trim());
  if (!filter || /[()\[\]]/.test(filter[1])) return undefined;
  const alternatives: UntilData = [];
  for (const alternative of filter[1].split("||")) {
    const tests = alternative.split("&&").map(testOf);
    if (tests.some((t) => t === undefined)) return undefined;
    alternatives.push(tests as UntilTest[]);
  }
  return alternatives;
}
