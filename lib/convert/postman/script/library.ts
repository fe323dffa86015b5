/**
 * Calls of the libraries Postman's sandbox gives every script that a flow can
 * say exactly: lodash's `_.find(list, …)`/`_.filter(list, …)` picks (pick.ts),
 * `_.get(value, "a.b[0]")` as a member path, and the text functions `btoa`,
 * `atob`, `encodeURIComponent` and `decodeURIComponent` of text known when
 * converting (`btoa("user:pass")` in a pre-request script), worked out now.
 *
 * @module
 */
import type { Node } from "./parse.ts";
import { pickCall } from "./pick.ts";
import { wholeInRange } from "./random_number.ts";
import { joinedPlaceholders } from "./replace_joined.ts";
import { member, type Sym } from "./sym.ts";

/** Text functions of text known now, as the sandbox (a browser's globals) works them out. */
const TEXT = new Map<string, (s: string) => string>([
  ["btoa", (s) => btoa(s)],
  ["atob", (s) => atob(s)],
  ["encodeURIComponent", encodeURIComponent],
  ["decodeURIComponent", decodeURIComponent],
]);

/**
 * `"a.b[0]['c-d']"` (lodash's path text) as its keys; undefined when it is not that simple.
 *
 * @example
 * ```ts
 * import { pathKeys } from "./library.ts";
 * if (pathKeys("data.items[0]['c-d'].Set-Cookie")?.join() !== "data,items,0,c-d,Set-Cookie") throw new Error();
 * ```
 */
export function pathKeys(text: string): (string | number)[] | undefined {
  const keys: (string | number)[] = [];
  const re = /\.?([A-Za-z_$][\w$-]*)|\[(\d+)\]|\[(["'])(.*?)\3\]/y;
  while (re.lastIndex < text.length) {
    const at = re.lastIndex;
    const m = re.exec(text);
    if (!m || (at === 0 && text.startsWith("."))) return undefined;
    keys.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : m[4]));
  }
  return keys.length > 0 ? keys : undefined;
}

/**
 * What a library call gives: a value, a response path or a pick; `undefined`
 * when the call is one of these but cannot be said; `null` when it is none of
 * them (the caller reads it otherwise).
 *
 * @example
 * ```ts
 * import { libraryCall } from "./library.ts";
 * const encoded = libraryCall("btoa", [{ k: "lit", value: "user:pass" }], undefined);
 * const got = libraryCall("_.get", [{ k: "path", path: "$.json" }, { k: "lit", value: "data.items[0].id" }], undefined);
 * if (encoded?.k !== "lit" || encoded.value !== "dXNlcjpwYXNz") throw new Error();
 * if (got?.k !== "path" || got.path !== "$.json.data.items[0].id") throw new Error(JSON.stringify(got));
 * ```
 */
export function libraryCall(
  callee: string,
  args: (Sym | undefined)[],
  second: Node | undefined,
): Sym | undefined | null {
  const [first, key] = args;
  const lodash = callee.match(/^_\.(find|filter)$/)?.[1];
  if (lodash) return first?.k === "path" ? pickCall(lodash, first.path, second, true) : undefined;
  if (callee === "_.get") {
    const keys = key?.k === "lit" && typeof key.value === "string"
      ? pathKeys(key.value)
      : undefined;
    if (first?.k !== "path" || !keys) return undefined;
    return { k: "path", path: keys.reduce<string>((p, k) => member(p, k), first.path) };
  }
  if (callee === "_.random") return lodashRandom(args);
  if (callee === "_.sample" || callee === "_.shuffle") return lodashPick(callee, first);
  const text = TEXT.get(callee);
  if (!text) return null;
  if (first?.k !== "lit" || typeof first.value !== "string") return undefined;
  try {
    return { k: "lit", value: text(first.value) };
  } catch {
    // Not Latin-1 text for btoa, not base64 for atob, a broken escape: the sandbox throws too.
    return undefined;
  }
}

/**
 * `pm.variables.replaceIn("{{x}}")`: the variable, when the text is one
 * placeholder; text without placeholders is itself; text of placeholders with words beside them
 * is their values joined with the words (replace_joined.ts). A value that is no text
 * (a number, a boolean, a value made at run time) is given back as it is, as
 * Newman's `replaceIn(Math.floor(Math.random() * 9000))` is that number.
 *
 * @example
 * ```ts
 * import { replaceIn } from "./library.ts";
 * const v = replaceIn({ k: "lit", value: "{{id}}" }, (n) => ({ k: "var", name: n, expr: "${vars.id}" }));
 * if (v?.k !== "var" || replaceIn({ k: "lit", value: "a {{b}} {{c}}" }, () => undefined) !== undefined) throw new Error();
 * const made = { k: "gen" as const, text: "${RANDOM.DIGITS_3}" };
 * if (replaceIn(made, () => undefined) !== made) throw new Error();
 * ```
 */
export function replaceIn(
  of: Sym | undefined,
  variable: (name: string) => Sym | undefined,
): Sym | undefined {
  const value = of?.k === "lit" ? of.value : undefined;
  if (of?.k === "gen" || typeof value === "number" || typeof value === "boolean") return of;
  if (typeof value !== "string") return undefined;
  const one = value.match(/^\{\{([^{}]+)\}\}$/);
  if (one) return variable(one[1].trim());
  if (!/\{\{/.test(value)) return { k: "lit", value };
  // Words beside placeholders: the values joined in their places, as text (replace_joined.ts).
  return joinedPlaceholders(value, variable);
}

/**
 * lodash's `_.random(min, max)` of whole numbers: a made number of as many digits as keep it in
 * the range (`${RANDOM.DIGITS_n}` is n digits, the first not 0), the most that do; undefined
 * when no count does (`_.random(0, 1)`) or a bound is not a whole number known now (a fraction
 * is asked for by a third argument or a bound with a fraction, which no made value gives).
 *
 * @example
 * ```ts
 * import { lodashRandom } from "./library.ts";
 * const n = (v: number) => ({ k: "lit" as const, value: v });
 * const made = lodashRandom([n(1), n(100000)]);
 * if (made?.k !== "gen" || made.text !== "${RANDOM.DIGITS_5}") throw new Error(JSON.stringify(made));
 * if (lodashRandom([n(0), n(1)]) !== undefined || lodashRandom([n(10)]) !== undefined) throw new Error();
 * ```
 */
export function lodashRandom(args: (Sym | undefined)[]): Sym | undefined {
  const [low, high] = args.map((a) => a?.k === "lit" ? a.value : undefined);
  return args.length === 2 ? wholeInRange(low, high) : undefined;
}

/**
 * lodash's `_.sample(list)` and `_.shuffle(list)` of a list known now: a value the script could
 * have made, the same in every run (a flow has no random pick): the list's first element, and the
 * list in the order it is written (one of its shuffles, so `_.shuffle(list)[0]` is that element
 * too); undefined for a list known only when the script runs, or an empty one.
 *
 * @example
 * ```ts
 * import { lodashPick } from "./library.ts";
 * const list = { k: "lit" as const, value: ["a", "b"] };
 * const one = lodashPick("_.sample", list);
 * if (one?.k !== "lit" || one.value !== "a" || lodashPick("_.shuffle", list) !== list) throw new Error();
 * if (lodashPick("_.sample", { k: "path", path: "$.json" }) !== undefined) throw new Error();
 * ```
 */
export function lodashPick(callee: string, list: Sym | undefined): Sym | undefined {
  if (list?.k !== "lit" || !Array.isArray(list.value) || list.value.length === 0) return undefined;
  return callee === "_.shuffle" ? list : { k: "lit", value: list.value[0] };
}
