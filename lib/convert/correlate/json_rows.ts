/**
 * A row's number inside JSON in a link's query value. phpLiteAdmin names a row by its key
 * values as a JSON list, `?action=row_editordelete&pk=%5B1%5D` (`pk=[1]`), and the form that
 * page holds posts to `pk=["[1]"]`. The number is no `…id=N` of its own (row_links.ts reads
 * those), so the evidence that it names the row is the page: the one row showing a text the
 * journey typed links it, and the page's other rows link the same page and name with other
 * numbers (or the name is an id's). It is captured from the live page by that row's text and
 * sent wherever the journey sends that name with the same number inside JSON, whatever the
 * layers (`encoded.ts` reads a JSON text inside a string of the JSON too).
 *
 * @module
 */
import type { Producer, Step } from "../model.ts";
import { parseBody, safeDecode } from "../json.ts";
import type { Correlator } from "./state.ts";
import { escapeRegExpSlash as escape } from "../../_util/regex_escape.ts";

/** How many digits a row's number has at most: a larger one is no small row number. */
const ROW = /^\d{1,15}$/;
const key = (name: string, n: string) => `json-row?${name}\u0000${Number(n)}`;

/** The leaves of `value`, JSON texts inside its strings read too (a bounded depth). */
function leaves(value: unknown, depth = 0): unknown[] {
  if (depth > 4) return [value];
  if (Array.isArray(value)) return value.flatMap((v) => leaves(v, depth + 1));
  if (typeof value === "object" && value !== null) {
    return Object.values(value).flatMap((v) => leaves(v, depth + 1));
  }
  if (typeof value === "string" && /^\s*[[{]/.test(value)) {
    try {
      return leaves(parseBody(value), depth + 1);
    } catch {
      return [value];
    }
  }
  return [value];
}

/**
 * The one small number a query value's JSON holds (`[1]`, `["[1]"]`, `{"id":1}`) as its only
 * leaf, else undefined: a value that is no JSON list or object, or holds more than that.
 *
 * @example
 * ```ts
 * import { jsonRowNumber } from "./json_rows.ts";
 * if (jsonRowNumber("[1]") !== "1" || jsonRowNumber('["[12]"]') !== "12") throw new Error();
 * if (jsonRowNumber("1") !== undefined || jsonRowNumber("[1,2]") !== undefined) throw new Error();
 * ```
 */
export function jsonRowNumber(value: string): string | undefined {
  if (!/^\s*[[{]/.test(value) || value.length > 200) return undefined;
  let json: unknown;
  try {
    json = parseBody(value);
  } catch {
    return undefined;
  }
  const found = leaves(json);
  if (found.length !== 1) return undefined;
  const n = found[0];
  return typeof n === "number" && Number.isSafeInteger(n) && n >= 0 ? String(n) : undefined;
}

/**
 * The text of a link's query value (as the page wrote it: `%5B1%5D`, `[1]`) around the
 * number `n`, as a pattern whose group is the number; undefined when the number is not
 * written there exactly once. A `%5B` is one unit, so its `5` is never taken for a digit.
 */
function aroundNumber(raw: string, n: string): string | undefined {
  const units = raw.match(/%[0-9A-Fa-f]{2}|&#?\w+;|[\s\S]/g) ?? [];
  const runs: [number, number][] = [];
  for (let i = 0; i < units.length; i++) {
    if (!/^\d$/.test(units[i])) continue;
    let j = i;
    while (j < units.length && /^\d$/.test(units[j])) j++;
    if (units.slice(i, j).join("") === n) runs.push([i, j]);
    i = j;
  }
  if (runs.length !== 1) return undefined;
  const [from, to] = runs[0];
  return `${escape(units.slice(0, from).join(""))}(\\d+)${escape(units.slice(to).join(""))}`;
}

/** The pairs of a link's query, as the page wrote them (`&amp;` a separator too). */
const rawPairs = (href: string) =>
  href.slice(href.indexOf("?") + 1).split(/&amp;|&|;/).flatMap((pair): [string, string][] => {
    const eq = pair.indexOf("=");
    return eq > 0 ? [[safeDecode(pair.slice(0, eq)), pair.slice(eq + 1)]] : [];
  });

/**
 * The value of `name` in the link `href` as the page wrote it (`%5B1%5D`), else undefined.
 *
 * @example
 * ```ts
 * import { rawQueryValue } from "./json_rows.ts";
 * if (rawQueryValue("?a=1&amp;pk=%5B1%5D", "pk") !== "%5B1%5D") throw new Error();
 * ```
 */
export function rawQueryValue(href: string, name: string): string | undefined {
  return href.includes("?") ? rawPairs(href).find(([k]) => k === name)?.[1] : undefined;
}

/** Each link of `html` to `page` (or to `?…`, the page itself) sending `name`: its raw value. */
function linkValues(html: string, page: string, name: string): string[] {
  const hrefs = [...html.matchAll(/\bhref\s*=\s*["']([^"']*)["']/gi)].slice(0, 5000);
  return hrefs.flatMap(([, href]) => {
    const q = href.indexOf("?");
    if (q === -1 || (q > 0 && !href.slice(0, q).endsWith(page))) return [];
    return rawPairs(href).filter(([k]) => k === name).map(([, v]) => v);
  });
}

/** What a row's link says: the page it opens, the query name and its raw value. */
export interface RowLink {
  /** The last segment of the link's path (`phpliteadmin.php`), "" for a link that starts with `?`. */
  page: string;
  name: string;
  /** The value as the page wrote it inside the link, `&amp;` and all. */
  raw: string;
}

/**
 * Notes the number inside JSON that `link` of the row showing `shown` sends, when the page's
 * other links to the same page and name hold other numbers or the name is an id's (`idName`):
 * captured by `inRow(href)`, the pattern of the row with the link's pattern in it.
 *
 * @example
 * ```ts
 * import { jsonRowProducer, noteJsonRowLink } from "./json_rows.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const html = "<tr><td><a href='?pk=%5B1%5D'>e</a></td><td>high water</td></tr>" +
 *   "<tr><td><a href='?pk=%5B2%5D'>e</a></td><td>low water</td></tr>";
 * const list = { last: { responseText: html } };
 * // deno-lint-ignore no-explicit-any
 * noteJsonRowLink(c, list as any, { page: "", name: "pk", raw: "%5B1%5D" }, false, (href) =>
 *   `<tr>(?:(?!</tr>)[\\s\\S])*?${href}(?:(?!</tr>)[\\s\\S])*?>high water<`);
 * // deno-lint-ignore no-explicit-any
 * if (jsonRowProducer(c, "pk", 1, {} as any)?.step !== list) throw new Error();
 * ```
 */
export function noteJsonRowLink(
  c: Correlator,
  step: Step,
  link: RowLink,
  idName: boolean,
  inRow: (href: string) => string,
): void {
  const n = jsonRowNumber(safeDecode(link.raw.replace(/&amp;/g, "&")));
  if (n === undefined || c.members.has(key(link.name, n))) return;
  const html = step.last.responseText ?? "";
  const others = new Set(
    linkValues(html, link.page, link.name).map((v) => jsonRowNumber(safeDecode(v))),
  );
  others.delete(undefined);
  if (!idName && others.size < 2) return;
  const around = aroundNumber(link.raw, n);
  if (around === undefined) return;
  const href = `\\bhref\\s*=\\s*["'](?:[^"'?]*?${escape(link.page)})?\\?(?:[^"']*?[&;])?${
    escape(link.name)
  }=${around}[&#"']`;
  const pattern = inRow(href);
  if (new RegExp(pattern, "i").exec(html)?.[1] !== n) return;
  const source = { kind: "regex" as const, name: link.name, pattern };
  c.members.set(key(link.name, n), { producer: { step, source, secret: false }, under: "?" });
}

/**
 * The producer of the row number `value` sent inside JSON under the query name `name`, when a
 * row's link named it (see {@linkcode noteJsonRowLink}) in another step; else undefined.
 *
 * @example
 * ```ts
 * import { jsonRowProducer } from "./json_rows.ts";
 * import { emptyCorrelator } from "./state.ts";
 * // deno-lint-ignore no-explicit-any
 * if (jsonRowProducer(emptyCorrelator("a", true), "pk", 1, {} as any)) throw new Error();
 * ```
 */
export function jsonRowProducer(
  c: Correlator,
  name: string,
  value: unknown,
  step: Step,
): Producer | undefined {
  const text = typeof value === "number" ? String(value) : value;
  if (typeof text !== "string" || !ROW.test(text)) return undefined;
  const found = c.members.get(key(name, text));
  return found !== undefined && found.producer.step !== step ? found.producer : undefined;
}
