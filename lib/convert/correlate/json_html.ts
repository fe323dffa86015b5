/**
 * HTML a JSON answer carries in a string member: a page's script fetches a
 * dialog as `{"result":"Ok","html":"<form …>"}` (ZoneMinder's modals) and
 * posts the form it shows. The form's hidden token is made for each answer,
 * so no page before held it, and the JSON answer holds it only inside longer
 * text: a search by whole members finds nothing. A member that holds an HTML
 * tag is read as a page (pages.ts: hidden inputs, `<meta>` tokens, `data-`
 * attributes, its links' values), each value found again in a fresh answer by
 * the page's pattern over that member (`{path: $.json.html, regex: …}`).
 *
 * @module
 */
import type { JsonPath, Producer, Step } from "../model.ts";
import { valueKey, walk } from "../json.ts";
import { type PageValue, pageValues } from "../pages.ts";
import { isSecretShaped, looksLikeId } from "../values.ts";
import type { Correlator } from "./state.ts";
import { sentSoFar } from "./client_constants.ts";

/** An opening tag a form or a page's head writes: what makes a string HTML, not prose. */
const TAG = /<(?:input|meta|form|a|button|select|textarea|div)\b[^>]*>/i;

/** A value of HTML inside a JSON member, and where that member is. */
export interface MemberValue {
  path: JsonPath;
  value: PageValue;
}

/**
 * The page values of each string member of `json` that holds HTML (see the
 * module), with the member's path. Only values the page's pattern finds as
 * written are taken: an escaped or encoded one would need reading back twice.
 *
 * @example
 * ```ts
 * import { jsonHtmlValues } from "./json_html.ts";
 * const json = { result: "Ok", html: '<form><input type="hidden" name="__guard" value="key:9f2c41d07a6b4be1a1c3,1796060741"></form>' };
 * const [found, ...rest] = jsonHtmlValues(json);
 * if (found.path.join() !== "html" || found.value.value !== "key:9f2c41d07a6b4be1a1c3,1796060741" || rest.length) {
 *   throw new Error(JSON.stringify(found));
 * }
 * if (jsonHtmlValues({ note: "a < b and c > d" }).length !== 0) throw new Error();
 * ```
 */
export function jsonHtmlValues(json: unknown): MemberValue[] {
  const out: MemberValue[] = [];
  walk(json, (path, _key, leaf) => {
    if (typeof leaf !== "string" || !TAG.test(leaf)) return;
    for (const value of pageValues(leaf)) {
      if (value.raw === undefined && value.encoded === undefined) out.push({ path, value });
    }
  });
  return out;
}

/**
 * Makes each value of HTML `step`'s JSON answer holds (see the module) found there again, as
 * producers.ts takes a page's own: a token or an id the server made, not one a producer before
 * it handed out (a cookie aside), and not what the client sent under that name before (the
 * collation a form chose, phpMyAdmin's `db_collation`, which the dialog writes back). `set`
 * records the producer (producers.ts's rule for one that replaces a cookie).
 *
 * @example
 * ```ts
 * import { produceJsonHtml } from "./json_html.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const html = '<input type="hidden" name="__guard" value="key:9f2c41d07a6b4be1a1c3,1796060741">';
 * const last = { hasJson: true, json: { html } };
 * const found: string[] = [];
 * // deno-lint-ignore no-explicit-any
 * produceJsonHtml(c, { last } as any, (_k, value, p) => {
 *   if (p.source.kind === "json" && p.source.regex) found.push(value);
 * });
 * if (found.join() !== "key:9f2c41d07a6b4be1a1c3,1796060741") throw new Error(found.join());
 * ```
 */
export function produceJsonHtml(
  c: Correlator,
  step: Step,
  set: (k: string, value: string, producer: Producer) => void,
): void {
  const r = step.last;
  if (!r.hasJson) return;
  for (const { path, value: v } of jsonHtmlValues(r.json)) {
    const k = valueKey(v.value);
    const held = c.producers.get(k);
    const client = c.sentSeen.has(k) || sentSoFar(c, v.name, v.value);
    if ((held && held.source.kind !== "cookie") || c.apiWords.has(v.value) || client) continue;
    const secret = v.secret && isSecretShaped(v.value);
    if (!secret && !v.state && !looksLikeId(v.name, v.value)) continue;
    set(k, v.value, {
      step,
      source: { kind: "json", path, regex: v.pattern, name: v.name },
      secret,
    });
    if (secret) c.secrets.add(v.value);
  }
}
