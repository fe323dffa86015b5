/**
 * Which of a recording's tokens can stand in a text, found without trying
 * each one: a long journey produces thousands of ids, and every later path
 * segment and string was searched for every one of them (a 4,000-request
 * recording took minutes). A token that is no secret stands in a text only
 * whole, between characters that are no letters or digits, so its first run
 * of letters and digits is a whole run of the text: the index is by that
 * run. A secret is found anywhere, so it is indexed by its last
 * {@linkcode TAIL} characters (every JWT shares its first ones), looked up
 * at every place of the text once a
 * recording holds more than a few (a token chain hands out one per answer);
 * shorter secrets and tokens that start with another character (a path) are
 * always tried.
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
  /** Secrets of at least {@linkcode TAIL} characters, all, then by their last ones. */
  secrets: number[];
  byTail: Map<string, number[]>;
  always: number[];
}

/** How many characters of a secret index it: as many as the shortest a redactor masks. */
const TAIL = 6;

/** Up to how many long secrets are each searched for, as cheap as a look-up per place. */
const FEW_SECRETS = 16;

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
  if (index.secrets.length <= FEW_SECRETS) { for (const at of index.secrets) found.add(at); }
  else {
    for (let end = TAIL; end <= text.length; end++) {
      for (const at of index.byTail.get(text.slice(end - TAIL, end)) ?? []) found.add(at);
    }
  }
  return [...found].sort((a, b) => a - b);
}

/** The index of `tokens` as they are now: added to after pushes, made anew after a splice. */
function current(tokens: Tokens): Index {
  let index = indexes.get(tokens);
  const pushedOnly = index !== undefined && index.read <= tokens.length &&
    (index.read === 0 || tokens[index.read - 1] === index.last);
  if (index === undefined || !pushedOnly) {
    index = {
      read: 0,
      last: undefined,
      byRun: new Map(),
      secrets: [],
      byTail: new Map(),
      always: [],
    };
    indexes.set(tokens, index);
  }
  for (; index.read < tokens.length; index.read++) {
    const [value, p] = tokens[index.read];
    if (p.secret && value.length >= TAIL) {
      index.secrets.push(index.read);
      listAt(index.byTail, value.slice(-TAIL)).push(index.read);
      continue;
    }
    const run = p.secret ? undefined : /^[A-Za-z0-9]+/.exec(value)?.[0];
    if (run === undefined) index.always.push(index.read);
    else listAt(index.byRun, run).push(index.read);
  }
  index.last = tokens[tokens.length - 1];
  return index;
}

/** The list `map` holds at `key`, made empty the first time. */
function listAt(map: Map<string, number[]>, key: string): number[] {
  const list = map.get(key) ?? [];
  map.set(key, list);
  return list;
}
