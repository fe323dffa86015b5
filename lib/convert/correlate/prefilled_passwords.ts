/**
 * A password box the page filled itself: an edit form may write its password
 * inputs with a placeholder (DAViCal's user editor writes `value="******"`,
 * meaning "unchanged") or with what it stores. When the user types nothing
 * there the browser sends the page's value back, so that value is the page's,
 * not a credential: never asked of the user, never made up by the run (a
 * fresh password there would change the account's password on every run). It
 * is sent as the page wrote it, and a later rule captures it from the page
 * where an answer produced it. The evidence is the markup, not a name: the
 * latest page before the request holding an input of the field's name holds
 * it `type="password"` with that very value. A password the user typed is in
 * no page's markup and stays a credential. A form post whose password boxes
 * all send the page's values logs no one in (an edit that keeps the password).
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import type { Step } from "../model.ts";
import { escapeRegExpSlash as escape } from "../../_util/regex_escape.ts";
import { htmlDecoded } from "../../_util/html_references.ts";
import { isAuthPath } from "../names.ts";
import { bodyFields } from "./body_fields.ts";
import { latestPage } from "./hidden_fields.ts";
import { isMarkup } from "./password_fields.ts";
import type { Correlator } from "./state.ts";

/** The pattern of an `<input>` named `key`, whatever its quotes. */
function namedInput(key: string): RegExp {
  return new RegExp(`<input\\b[^>]*\\bname\\s*=\\s*["']?${escape(key)}(?:["'\\s/>])`, "i");
}

/**
 * The value the first input named `key` of `html` holds when that input is a
 * password box with a non-empty value attribute; else undefined.
 *
 * @example
 * ```ts
 * import { passwordBoxValue } from "./prefilled_passwords.ts";
 * const html = `<input value='******' name='pass1' type='password'>`;
 * if (passwordBoxValue(html, "pass1") !== "******") throw new Error();
 * if (passwordBoxValue('<input type="text" name="pass1" value="x">', "pass1") !== undefined) throw new Error();
 * ```
 */
export function passwordBoxValue(html: string, key: string): string | undefined {
  for (const tag of html.matchAll(/<input\b[^>]{0,2000}>/gi)) {
    const attr = (name: string) => {
      const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+))`, "i")
        .exec(tag[0]);
      return m ? htmlDecoded(m[1] ?? m[2] ?? m[3]) : undefined;
    };
    if (attr("name") !== key) continue;
    const held = attr("value");
    return attr("type")?.toLowerCase() === "password" && held ? held : undefined;
  }
  return undefined;
}

/**
 * Whether the latest markup answer among `records` before index `i` that holds an input named
 * `key` held it as a password box filled with `value` (see the module).
 *
 * @example
 * ```ts
 * import { prefilledBefore } from "./prefilled_passwords.ts";
 * const page = { mimeType: "text/html", responseText: '<input type="password" name="p" value="******">' };
 * // deno-lint-ignore no-explicit-any
 * if (!prefilledBefore([page, {}] as any, 1, "p", "******")) throw new Error();
 * // deno-lint-ignore no-explicit-any
 * if (prefilledBefore([page, {}] as any, 1, "p", "typed-secret")) throw new Error();
 * ```
 */
export function prefilledBefore(
  records: readonly HarRecord[],
  i: number,
  key: string,
  value: string,
): boolean {
  const input = namedInput(key);
  for (let k = i - 1; k >= 0; k--) {
    const html = records[k].responseText;
    if (html === undefined || !isMarkup(records[k]) || !input.test(html)) continue;
    return passwordBoxValue(html, key) === value;
  }
  return false;
}

/**
 * Whether the latest page before `step` holding an input named `key` held it
 * as a password box filled with `value`: the page's value, sent back unchanged.
 *
 * @example
 * ```ts
 * import { heldInPasswordBox } from "./prefilled_passwords.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const page = { name: "open_edit", last: { url: new URL("http://w.test/edit"), mimeType: "text/html",
 *   responseText: '<input type="password" name="pass1" value="******">' } };
 * const save = { name: "edit", first: { method: "POST", url: new URL("http://w.test/edit") } };
 * // deno-lint-ignore no-explicit-any
 * c.steps.push(page as any);
 * // deno-lint-ignore no-explicit-any
 * if (!heldInPasswordBox(c, "pass1", "******", save as any)) throw new Error();
 * // deno-lint-ignore no-explicit-any
 * if (heldInPasswordBox(c, "pass1", "typed-secret", save as any)) throw new Error();
 * ```
 */
export function heldInPasswordBox(c: Correlator, key: string, value: string, step: Step): boolean {
  const html = latestPage(c, step, namedInput(key))?.last.responseText;
  return html !== undefined && value !== "" && passwordBoxValue(html, key) === value;
}

/**
 * The posts of `records` that send values in password inputs (`fields`, the pages' word) and
 * every one of them as the page filled it, at a path that does not say login: an edit that
 * keeps the password, not a login.
 *
 * @example
 * ```ts
 * import { pageFilledPosts } from "./prefilled_passwords.ts";
 * const page = { mimeType: "text/html", responseText: '<input type="password" name="p" value="******">' };
 * const post = (bodyText: string) => ({ method: "POST", url: new URL("http://a.test/users/edit"),
 *   bodyMime: "application/x-www-form-urlencoded", bodyText, headers: [] });
 * const [keep, change] = [post("name=ann&p=******"), post("name=ann&p=typed-secret")];
 * // deno-lint-ignore no-explicit-any
 * const out = pageFilledPosts([page, keep, change] as any, new Set(["p"]));
 * if (!out.has(keep as any) || out.has(change as any)) throw new Error();
 * ```
 */
export function pageFilledPosts(
  records: readonly HarRecord[],
  fields: ReadonlySet<string>,
): Set<HarRecord> {
  const out = new Set<HarRecord>();
  records.forEach((r, i) => {
    if (r.method !== "POST" || isAuthPath(r.url.pathname)) return;
    const sent = bodyFields(r).filter(([k, v]) => fields.has(k) && v !== "");
    if (sent.length > 0 && sent.every(([k, v]) => prefilledBefore(records, i, k, v))) out.add(r);
  });
  return out;
}
