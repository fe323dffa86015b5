/**
 * Which of a recording's tokens can stand in a text, found without trying
 * each one: a long journey produces thousands of ids, and every later path
 * segment and string was searched for every one of them (a 4,000-request
 * recording took minutes). A token that is no secret stands in a text only
 * whole, between characters that are no letters or digits, so its first run
 * of letters and digits is a whole run of the text: the index is by that
 * run. Secrets (found anywhere) and tokens that start with another character
 * (a path) are always tried.
 *
 * @module
 */
import type { Producer } from "../model.ts";

type Tokens = readonly [string, Producer][];

interface Index {
  /** How many tokens were read, and the last one read: a splice is seen and the index made anew. */
  read: number;
  last: [string, Producer] | undefined;
  byRun: Map<string, number[]>;
  always: number[];
}

const indexes = new WeakMap<Tokens, Index>();
const RUN = /[A-Za-z0-9]+/g;

/**
 * The positions in `tokens` of those that may stand in `text`, in the order
 * they were produced (a tie between two goes to the first produced).
 *
 * @example
 * ```ts
 * import { candidateTokens } from "./token_index.ts";
 * const p = { secret: false };
 * // deno-lint-ignore no-explicit-any
 * const tokens: any = [["4f1c9a2e", p], ["/srv/a", p], ["7b2d", p]];
 * const at = candidateTokens(tokens, "/items/7b2d?x=1");
 * if (at.join() !== "1,2") throw new Error(at.join());
 * ```
 */
export function candidateTokens(tokens: Tokens, text: string): number[] {
  const index = current(tokens);
  const found = new Set(index.always);
  for (const run of text.match(RUN) ?? []) {
    for (const at of index.byRun.get(run) ?? []) found.add(at);
  }
  return [...found].sort((a, b) => a - b);
}

/** The index of `tokens` as they are now: added to after pushes, made anew after a splice. */
function current(tokens: Tokens): Index {
  let index = indexes.get(tokens);
  const pushedOnly = index !== undefined && index.read <= tokens.length &&
    (index.read === 0 || tokens[index.read - 1] === index.last);
  if (index === undefined || !pushedOnly) {
    index = { read: 0, last: undefined, byRun: new Map(), always: [] };
    indexes.set(tokens, index);
  }
  for (; index.read < tokens.length; index.read++) {
    const [value, p] = tokens[index.read];
    const run = p.secret ? undefined : /^[A-Za-z0-9]+/.exec(value)?.[0];
    if (run === undefined) index.always.push(index.read);
    else index.byRun.set(run, [...index.byRun.get(run) ?? [], index.read]);
  }
  index.last = tokens[tokens.length - 1];
  return index;
}
