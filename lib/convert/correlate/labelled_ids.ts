/**
 * Rows a page names only by their label. A form that adds a row may answer
 * with a redirect to the list, not to the row (Django's admin adds a group
 * so), and the row's id then shows only beside its name: an option of a
 * select (`<option value="1">Harbour masters</option>`, what the next form
 * sends as `groups=1`), a link of the list (`<a href="/groups/1/change/">
 * Harbour masters</a>`, the page the user opens next). The label is what the
 * user chose and reads; the id is whatever the instance gave. So:
 *
 * - a number a form sends under a field whose select, in the latest page
 *   holding it, offers it as an option labelled with words found nowhere
 *   else in that select is captured from that page by the label (unless
 *   the page marked it selected: selected_option.ts);
 * - a number in a link's path right after a collection (`/groups/1/…`),
 *   linked by a text of words no other row of that collection has, is a
 *   member of the collection: a later request that sends it there captures
 *   it from the page by the link's text.
 *
 * @module
 */
import type { Step } from "../model.ts";
import { singular } from "../names.ts";
import { useProducer } from "./captures.ts";
import { latestPage } from "./hidden_fields.ts";
import { selectedOptionPattern } from "./selected_option.ts";
import type { Correlator } from "./state.ts";
import { escapeRegExpSlash as escape } from "../../_util/regex_escape.ts";

const ROW = /^\d{1,15}$/;

/** Whether a label is words the user reads: a letter in it, not too long, no markup. */
const isLabel = (text: string) => text.length <= 200 && /\p{L}/u.test(text);

/** The value of attribute `name` in a tag's attribute text. */
function attr(attrs: string, name: string): string | undefined {
  const m = new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, "i").exec(attrs);
  return m ? m[1] ?? m[2] : undefined;
}

/**
 * The pattern whose first group is the value of the option labelled as the
 * option `value` of select `key` is in `html`, when that label is words no
 * other option of the select has.
 *
 * @example
 * ```ts
 * import { optionPattern } from "./labelled_ids.ts";
 * const html = '<select name="g"><option value="1">Other</option><option value="2">Harbour</option></select>';
 * const p = optionPattern(html, "g", "2")!;
 * if (new RegExp(p).exec(html.replace('"2"', '"5"'))?.[1] !== "5") throw new Error(p);
 * ```
 */
export function optionPattern(html: string, key: string, value: string): string | undefined {
  const name = `name=["']${escape(key)}["']`;
  const select = new RegExp(`<select\\b[^>]*\\b${name}[^>]*>([\\s\\S]*?)</select>`, "i").exec(html);
  if (!select) return undefined;
  const options = [...select[1].matchAll(/<option\b([^>]*)>([^<]*)<\/option>/gi)]
    .map((o) => ({ value: attr(o[1], "value"), label: o[2].trim() }));
  const label = options.find((o) => o.value === value)?.label;
  if (label === undefined || !isLabel(label)) return undefined;
  if (options.filter((o) => o.label === label).length !== 1) return undefined;
  const pattern = `<select\\b[^>]*\\b${name}[^>]*>(?:(?!</select>)[\\s\\S])*?` +
    `<option\\b[^>]*\\bvalue=["'](\\d+)["'][^>]*>\\s*${escape(label)}\\s*</option>`;
  return new RegExp(pattern, "i").exec(html)?.[1] === value ? pattern : undefined;
}

/**
 * The capture of form field `key`'s number `value` that `step` submits by
 * its option's label in the latest page before it holding a select `key`
 * (see the module), else `undefined`.
 *
 * @example
 * ```ts
 * import { labelledOption } from "./labelled_ids.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const page = { name: "open_user", noun: "user", uses: new Set(), captures: [], captureNames: { take: (n: string) => n }, captureByPath: new Map(),
 *   last: { url: new URL("http://w.test/u"), mimeType: "text/html", responseText: '<select name="g"><option value="3">Crew</option></select>' } };
 * const save = { name: "save", uses: new Set(), first: { method: "POST", url: new URL("http://w.test/u") } };
 * // deno-lint-ignore no-explicit-any
 * c.steps.push(page as any);
 * // deno-lint-ignore no-explicit-any
 * if (labelledOption(c, "g", "3", save as any) !== "${steps.open_user.capture.g}") throw new Error();
 * ```
 */
export function labelledOption(
  c: Correlator,
  key: string,
  value: string,
  step: Step,
): string | undefined {
  if (!ROW.test(value) || !c.linking || step.first.method === "GET") return undefined;
  const holds = new RegExp(`<select\\b[^>]*\\bname=["']${escape(key)}["']`, "i");
  const page = latestPage(c, step, holds);
  // An option the page marked selected is the page's choice, whose label is
  // the instance's state; an option the user picked is known by its label.
  const html = page?.last.responseText;
  const pattern = html === undefined
    ? undefined
    : selectedOptionPattern(html, key, value) ?? optionPattern(html, key, value);
  if (!page || pattern === undefined) return undefined;
  return useProducer(c, {
    step: page,
    source: { kind: "regex", name: key, pattern },
    secret: false,
  }, step);
}

/** A link's path split at its row number: the collection before it, the number, the rest. */
const LINKED_ROW = /^(.*\/[A-Za-z][A-Za-z_-]*)\/(\d{1,15})((?:\/[A-Za-z][A-Za-z_-]*)*\/?)$/;

/**
 * Notes each row the page of `step` links by a text of words no other row
 * of its collection has (see the module), unless its number is a member
 * already (a create's `Location` named it).
 *
 * @example
 * ```ts
 * import { noteLinkedRows } from "./labelled_ids.ts";
 * import { createdIdProducer } from "./created_ids.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const last = { url: new URL("http://a.test/groups/"), mimeType: "text/html",
 *   responseText: '<a href="/groups/1/change/">Other</a><a href="/groups/2/change/">Harbour</a>' };
 * // deno-lint-ignore no-explicit-any
 * noteLinkedRows(c, { last } as any);
 * if (createdIdProducer(c, "/groups", "2") === undefined) throw new Error();
 * ```
 */
export function noteLinkedRows(c: Correlator, step: Step): void {
  const r = step.last;
  if (r.responseText === undefined || !/html/.test(r.mimeType)) return;
  const links = [...r.responseText.matchAll(/<a\b([^>]*)>([^<]*)<\/a>/gi)].flatMap((a) => {
    const href = attr(a[1], "href")?.replace(/^https?:\/\/[^/]+/i, "");
    const m = href === undefined ? null : LINKED_ROW.exec(href);
    const label = a[2].trim();
    return m && isLabel(label) ? [{ under: m[1], row: m[2], rest: m[3], label }] : [];
  });
  // The rows each label names under its collection, once per page: a long list stays linear.
  const rowsOf = new Map<string, Set<string>>();
  for (const l of links) {
    const labelled = `${l.under}\u0000${l.label}`;
    rowsOf.set(labelled, (rowsOf.get(labelled) ?? new Set()).add(l.row));
  }
  for (const link of links) {
    const key = `${link.under}\u0000${Number(link.row)}`;
    if (c.members.has(key) || rowsOf.get(`${link.under}\u0000${link.label}`)!.size > 1) continue;
    const pattern = `<a\\b[^>]*\\bhref=["'](?:https?://[^/"']+)?${escape(link.under)}/(\\d+)` +
      `${escape(link.rest)}["'][^>]*>\\s*${escape(link.label)}\\s*</a>`;
    if (new RegExp(pattern, "i").exec(r.responseText)?.[1] !== link.row) continue;
    const name = `${singular(link.under.slice(link.under.lastIndexOf("/") + 1))}_id`;
    const source = { kind: "regex" as const, name, pattern };
    c.members.set(key, { producer: { step, source, secret: false }, under: link.under });
  }
}
