/**
 * Fields the client sends with the same value every time (MediaWiki's
 * scripts post `formatversion=2` with each API call). When a page later
 * happens to hold that value too (the editor's revision `2`), it is still
 * the client's constant under that field: the client sent it so before any
 * answer handed it out. The same value under another field stays the page's.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import { parseBody, walk } from "../json.ts";
import type { Producer } from "../model.ts";
import type { Correlator } from "./state.ts";
import { literalKey } from "./script_literals.ts";

const pair = (key: string, value: string) => `${key}\u0000${value}`;

/** Each field and value of `r`'s query and body (urlencoded, JSON leaves by their key). */
function fields(r: HarRecord): [string, string][] {
  const out: [string, string][] = [...r.url.searchParams];
  if (!r.bodyText) return out;
  try {
    walk(parseBody(r.bodyText), (_p, key, leaf) => out.push([String(key), String(leaf)]));
  } catch {
    // Not JSON: a urlencoded form, or nothing a field of which can be told.
    if (!/^\s*[{[]/.test(r.bodyText)) out.push(...new URLSearchParams(r.bodyText));
  }
  return out;
}

/**
 * Remembers where each field and value `r` sends was first sent: the number
 * of steps made before it.
 *
 * @example
 * ```ts
 * import { rememberFields, sentBefore } from "./client_constants.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * // deno-lint-ignore no-explicit-any
 * rememberFields(c, { url: new URL("http://w.test/api?formatversion=2") } as any);
 * // deno-lint-ignore no-explicit-any
 * const p = { step: { name: "open_edit" } } as any;
 * // deno-lint-ignore no-explicit-any
 * c.steps.push(p.step as any);
 * if (!sentBefore(c, "formatversion", "2", p)) throw new Error();
 * if (sentBefore(c, "baserevid", "2", p)) throw new Error();
 * ```
 */
export function rememberFields(c: Correlator, r: HarRecord): void {
  for (const [key, value] of fields(r)) {
    const k = pair(key, value);
    if (!c.sentFields.has(k)) c.sentFields.set(k, c.steps.length);
  }
}

/**
 * Whether the client sent `value` under `key` before producer `p`'s answer
 * handed it out: the client's own constant, sent as recorded.
 *
 * @example
 * ```ts
 * import { sentBefore } from "./client_constants.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * // deno-lint-ignore no-explicit-any
 * if (sentBefore(newCorrelator("a"), "q", "2", { step: {} } as any)) throw new Error();
 * ```
 */
export function sentBefore(c: Correlator, key: string, value: string, p: Producer): boolean {
  const at = c.sentFields.get(pair(key, value));
  if (at === undefined) return false;
  const made = c.steps.indexOf(p.step);
  return made !== -1 && at <= made;
}

/**
 * Whether the client has sent `value` under `key` so far, this step's request included: a
 * redirect that names it back (`?mimetype=text/x-markdown` after a form sent that field)
 * echoes the client's own value, which no answer handed out.
 *
 * @example
 * ```ts
 * import { rememberFields, sentSoFar } from "./client_constants.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * // deno-lint-ignore no-explicit-any
 * rememberFields(c, { url: new URL("http://w.test/new"), bodyText: "mimetype=text%2Fx-markdown" } as any);
 * if (!sentSoFar(c, "mimetype", "text/x-markdown") || sentSoFar(c, "name", "text/x-markdown")) {
 *   throw new Error();
 * }
 * ```
 */
export function sentSoFar(c: Correlator, key: string, value: string): boolean {
  return c.sentFields.has(pair(key, value));
}

/**
 * Whether the client has sent `value` so far under any field of a query or body: text the user
 * typed into one form (a part's number) that another form's box shows back under another name
 * (an invoice line's `partnumber_1`) is the client's, not a value the server handed out.
 *
 * @example
 * ```ts
 * import { rememberFields, sentAnywhere } from "./client_constants.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * // deno-lint-ignore no-explicit-any
 * rememberFields(c, { url: new URL("http://w.test/ic.pl"), bodyText: "partnumber=BW-A-100" } as any);
 * if (!sentAnywhere(c, "BW-A-100") || sentAnywhere(c, "BW-A")) throw new Error();
 * ```
 */
export function sentAnywhere(c: Correlator, value: string): boolean {
  const tail = `\u0000${value}`;
  for (const k of c.sentFields.keys()) {
    if (k.endsWith(tail) && !k.slice(0, -tail.length).includes("\u0000")) return true;
  }
  return false;
}

/**
 * Whether `value` under `key` is the client's own constant: sent so before
 * producer `p`'s answer handed it out ({@linkcode sentBefore}), or written
 * under that very name by the app's own script (`{content: c, encoding:
 * "base64"}`, `script_literals.ts`). A listing's rows may hold the same word
 * under the same key (Decap CMS's media rows' `encoding: "base64"`), but a
 * capture from one of them needs that row on every instance, and the client
 * sends the word whatever the rows are.
 *
 * @example
 * ```ts
 * import { clientConstant } from "./client_constants.ts";
 * import { literalKey } from "./script_literals.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * c.scriptLiterals.add(literalKey("encoding", "base64"));
 * // deno-lint-ignore no-explicit-any
 * const p = { step: {} } as any;
 * if (!clientConstant(c, "encoding", "base64", p) || clientConstant(c, "name", "base64", p)) {
 *   throw new Error();
 * }
 * ```
 */
export function clientConstant(c: Correlator, key: string, value: string, p: Producer): boolean {
  return sentBefore(c, key, value, p) || c.scriptLiterals.has(literalKey(key, value));
}
