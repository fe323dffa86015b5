/**
 * A form field sent empty that the page's form held as an empty hidden
 * input: a browser sends the hidden fields of a form as the page had them,
 * so the value comes from the page, whatever it is there. A new page's
 * editor leaves the revision it starts from empty (DokuWiki's `date`), and
 * the same editor of a page that exists holds that revision's timestamp: a
 * second run, on an instance where the recording's first save already
 * happened, must send what the page says, or the save is a conflict.
 *
 * Non-empty values are found by value (producers.ts); an empty one cannot
 * be, so it is found by its field's name in the latest page before the
 * submission that holds a hidden input of that name, unless that name holds
 * the number of a row the journey made (it is named otherwise on another row).
 *
 * @module
 */
import type { Producer, Step } from "../model.ts";
import { useProducer } from "./captures.ts";
import type { Correlator } from "./state.ts";
import { escapeRegExpSlash as escape } from "../../_util/regex_escape.ts";

/**
 * The pattern whose first group is the value of hidden input `name` of `html`, when its first is
 * hidden (or of a type `accepts`) and holds `value` as written (character references and all).
 *
 * @example
 * ```ts
 * import { hiddenPattern } from "./hidden_fields.ts";
 * const html = '<input type="hidden" name="mid" value="&lt;m.1&gt;">';
 * const pattern = hiddenPattern(html, "mid", "&lt;m.1&gt;")!;
 * if (new RegExp(pattern).exec(html)?.[1] !== "&lt;m.1&gt;") throw new Error(pattern);
 * if (hiddenPattern(html, "mid", "<m.1>") !== undefined) throw new Error();
 * ```
 */
export function hiddenPattern(
  html: string,
  name: string,
  value = "",
  accepts: (type: string) => boolean = (type) => type === "hidden",
): string | undefined {
  for (const tag of html.matchAll(/<input\b[^>]{0,2000}>/gi)) {
    const attrs = [...tag[0].matchAll(/([\w:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)].map((a) => ({
      name: a[1].toLowerCase(),
      // As written: a page in capitals (CUPS's `<INPUT TYPE="HIDDEN" NAME=…>`) is matched so.
      written: a[1],
      value: a[2] ?? a[3],
      at: a.index!,
      quote: a[2] !== undefined ? '"' : "'",
    }));
    const named = attrs.find((a) => a.name === "name");
    if (named?.value !== name) continue;
    const held = attrs.find((a) => a.name === "value");
    const type = attrs.find((a) => a.name === "type")?.value.toLowerCase() ?? "text";
    const hidden = accepts(type);
    if (!hidden || !held || held.value !== value) return undefined;
    const n = `${named.written}=${named.quote}${escape(name)}${named.quote}`;
    const v = `${held.written}=${held.quote}([^${held.quote}]*)${held.quote}`;
    const input = tag[0].slice(1, 6);
    const pattern = named.at < held.at
      ? `<${input}[^>]*\\b${n}[^>]*\\b${v}`
      : `<${input}[^>]*\\b${v}[^>]*\\b${n}`;
    // A capture takes the first match: it must be this input.
    return new RegExp(pattern).exec(html)?.[1] === value ? pattern : undefined;
  }
  return undefined;
}

/**
 * Whether field name `key` holds the number of a row the journey made (a member noted from a
 * create's answer): Request Tracker names a ticket's empty links box `1-RefersTo` after ticket 1.
 * On a second run's row the page names it otherwise, so a capture by the recorded name finds
 * nothing; the browser sent it empty, and so does the flow.
 */
function namesMadeRow(c: Correlator, key: string): boolean {
  const numbers = key.match(/\d+/g);
  if (numbers === null) return false;
  const rows = new Set([...c.members.keys()].map((k) => k.slice(k.lastIndexOf("\u0000") + 1)));
  return numbers.some((n) => rows.has(String(Number(n))));
}

/**
 * The template of form field `key` that `step` submits empty when the latest
 * page before it holding an input named `key` held it hidden and empty: a
 * capture of that input from that page; else `undefined`.
 *
 * @example
 * ```ts
 * import { emptyHiddenField } from "./hidden_fields.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const page = { name: "open_edit", noun: "edit", uses: new Set(), captures: [], captureNames: { take: (n: string) => n }, captureByPath: new Map(),
 *   last: { url: new URL("http://w.test/edit"), mimeType: "text/html", responseText: '<input type="hidden" name="date" value="">' } };
 * const save = { name: "save", uses: new Set(), first: { method: "POST", url: new URL("http://w.test/edit") } };
 * // deno-lint-ignore no-explicit-any
 * c.steps.push(page as any);
 * // deno-lint-ignore no-explicit-any
 * const ref = emptyHiddenField(c, "date", "", save as any);
 * if (ref !== "${steps.open_edit.capture.date}") throw new Error(ref);
 * ```
 */
export function emptyHiddenField(
  c: Correlator,
  key: string,
  value: string,
  step: Step,
): string | undefined {
  if (value !== "" || step.first.method === "GET" || !c.linking) return undefined;
  if (namesMadeRow(c, key)) return undefined;
  const page = formPage(c, key, step);
  const pattern = page && hiddenPattern(page.last.responseText!, key);
  if (!page || pattern === undefined) return undefined;
  const source = { kind: "regex" as const, name: key, pattern };
  return useProducer(c, { step: page, source, secret: false }, step);
}

/**
 * The capture of hidden input `key` from the latest page before `step` holding an input of
 * that name, when that page held it hidden with `value` as written; else undefined.
 *
 * @example
 * ```ts
 * import { heldHiddenProducer } from "./hidden_fields.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const page = { name: "open_edit", last: { url: new URL("http://w.test/tides/1"),
 *   mimeType: "text/html", responseText: '<input type="hidden" name="pk" value="1">' } };
 * const save = { name: "save", first: { method: "POST", url: new URL("http://w.test/tides/1") } };
 * // deno-lint-ignore no-explicit-any
 * c.steps.push(page as any);
 * // deno-lint-ignore no-explicit-any
 * if (heldHiddenProducer(c, "pk", "1", save as any)?.step !== page) throw new Error();
 * // deno-lint-ignore no-explicit-any
 * if (heldHiddenProducer(c, "pk", "2", save as any) !== undefined) throw new Error();
 * ```
 */
export function heldHiddenProducer(
  c: Correlator,
  key: string,
  value: string,
  step: Step,
): Producer | undefined {
  const page = formPage(c, key, step);
  const pattern = page && hiddenPattern(page.last.responseText!, key, value);
  if (!page || pattern === undefined) return undefined;
  return { step: page, source: { kind: "regex", name: key, pattern }, secret: false };
}

/**
 * The latest page before `step` on its host whose HTML holds an input named `key`.
 *
 * @example
 * ```ts
 * import { formPage } from "./hidden_fields.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * // deno-lint-ignore no-explicit-any
 * if (formPage(c, "pk", { first: { url: new URL("http://w.test/") } } as any) !== undefined) throw new Error();
 * ```
 */
export function formPage(c: Correlator, key: string, step: Step): Step | undefined {
  return latestPage(c, step, new RegExp(`<input\\b[^>]*\\bname=["']${escape(key)}["']`, "i"));
}

/**
 * The latest HTML page before `step` on its host whose text `holds` matches:
 * where a form's field (an input, a select) was handed out.
 *
 * @example
 * ```ts
 * import { latestPage } from "./hidden_fields.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const page = { name: "open_add", last: { url: new URL("http://w.test/add"), mimeType: "text/html",
 *   responseText: '<select name="team"><option value="2">Harbour</option></select>' } };
 * const save = { name: "save", first: { method: "POST", url: new URL("http://w.test/add") } };
 * // deno-lint-ignore no-explicit-any
 * c.steps.push(page as any);
 * // deno-lint-ignore no-explicit-any
 * if (latestPage(c, save as any, /<select\b[^>]*name="team"/) !== page) throw new Error();
 * ```
 */
export function latestPage(c: Correlator, step: Step, holds: RegExp): Step | undefined {
  const pages = htmlPages(c);
  for (let i = pages.length - 1; i >= 0; i--) {
    const page = pages[i];
    if (page === step || page.last.url.host !== step.first.url.host) continue;
    if (holds.test(page.last.responseText!)) return page;
  }
  return undefined;
}

/** The HTML pages among each correlator's steps, found once each. */
const pagesOf = new WeakMap<Correlator, { read: number; pages: Step[] }>();

/**
 * The steps so far that answered an HTML page, in order. Every field of every
 * later step looks for its form among them: a recording of thousands of API
 * calls and few pages stays linear.
 */
function htmlPages(c: Correlator): Step[] {
  const index = pagesOf.get(c) ?? { read: 0, pages: [] };
  pagesOf.set(c, index);
  for (; index.read < c.steps.length; index.read++) {
    const r = c.steps[index.read].last;
    if (r.responseText !== undefined && /html/.test(r.mimeType)) {
      index.pages.push(c.steps[index.read]);
    }
  }
  return index.pages;
}

/**
 * Whether the latest page before `step` holding an input named `key` held
 * it hidden with `value`: the page handed the value out and the browser sent
 * it back (WordPress's login form holds `testcookie` = `1`), so it is the
 * page's, never a credential the user types, whatever the field's name.
 *
 * @example
 * ```ts
 * import { heldHidden } from "./hidden_fields.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const page = { name: "open_login", uses: new Set(), last: { url: new URL("http://w.test/login"),
 *   mimeType: "text/html", responseText: '<input type="hidden" name="testcookie" value="1" />' } };
 * const login = { name: "login", uses: new Set(), first: { method: "POST", url: new URL("http://w.test/login") } };
 * // deno-lint-ignore no-explicit-any
 * c.steps.push(page as any);
 * // deno-lint-ignore no-explicit-any
 * if (!heldHidden(c, "testcookie", "1", login as any)) throw new Error();
 * // deno-lint-ignore no-explicit-any
 * if (heldHidden(c, "testcookie", "2", login as any)) throw new Error();
 * ```
 */
export function heldHidden(c: Correlator, key: string, value: string, step: Step): boolean {
  const html = formPage(c, key, step)?.last.responseText;
  if (html === undefined) return false;
  for (const tag of html.matchAll(/<input\b[^>]{0,2000}>/gi)) {
    const attr = (name: string) =>
      new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, "i").exec(tag[0]);
    const named = attr("name");
    if ((named?.[1] ?? named?.[2]) !== key) continue;
    const type = attr("type");
    const held = attr("value");
    return (type?.[1] ?? type?.[2])?.toLowerCase() === "hidden" &&
      (held?.[1] ?? held?.[2]) === value;
  }
  return false;
}
