/**
 * A small number a form posts back that only its page handed out, as a hidden input of the field's
 * own name. A print server's jobs page (CUPS) lists a queued job with Cancel and Hold forms, each
 * holding the job's number as a hidden `job_id`; the answer that queued it said so only in text
 * ("job ID is Lobby_Laser-1"). A one-digit number is no evidence by value, so the cancel sent the
 * recorded 1: right on a fresh instance, but a second run cancelled the first run's job (a 200
 * page saying there is none) and left its own queued. The browser sends a form's hidden fields as
 * the page held them: that is where the number came from, so it is read from there, when the
 * page held it under that name alone (every input of the name holds it; a list of several rows
 * names each under one name, and its first is a position, not the row) and in a table row that
 * shows a text the journey sent before (the job's row shows `Lobby_Laser`, the name the user gave
 * the printer): a row of the journey's own. A page's flag (`submitted` = 1, `testcookie` = 1)
 * sits in no such row; it is the same on every instance and is sent as recorded. The page a
 * request so read answered may hold the number again outside any row (the Move Job page's own
 * form, hidden `JOB_ID`): the row's number, read there too. Only where no other rule found the
 * number's source: a create's answer or a row's link says more than a form.
 *
 * @module
 */
import type { Producer, Step } from "../model.ts";
import { heldHiddenProducer, latestPage } from "./hidden_fields.ts";
import type { Correlator } from "./state.ts";
import { escapeRegExpSlash as escape } from "../../_util/regex_escape.ts";

/**
 * A row's number: up to seven digits (as named_on_page.ts). A longer one is a time or a revision
 * the server stamped, which the rules for page-made values find already.
 */
const ROW = /^\d{1,7}$/;

/** The `value` attribute of an input tag, as written (`""` when it has none). */
function valueOf(tag: string): string {
  const m = /\svalue\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i.exec(tag);
  return m === null ? "" : m[1] ?? m[2] ?? m[3];
}

/** Per correlator, the steps whose request sent a number read from a row, with those numbers. */
const readFromRow = new WeakMap<Correlator, Map<Step, Set<string>>>();

/** Whether `page`'s own request sent `value` as a number this rule read from a row. */
function echoesRow(c: Correlator, page: Step, value: string): boolean {
  return readFromRow.get(c)?.get(page)?.has(value) ?? false;
}

/** Notes that `step` sends `value`, read from a row (its answer may hold it again). */
function noteRead(c: Correlator, step: Step, value: string): void {
  const steps = readFromRow.get(c) ?? new Map<Step, Set<string>>();
  readFromRow.set(c, steps);
  steps.set(step, (steps.get(step) ?? new Set()).add(value));
}

/** The texts `step`'s request sent in a query or a urlencoded body: what the user typed. */
function textsOf(step: Step): string[] {
  const body = step.last.bodyText ?? "";
  const form = /^[^=&\s]+=[^&]*(?:&[^=&\s]+=[^&]*)*$/.test(body) ? body : "";
  // A word of three characters or more: a digit, `on` or `1` shows in any row.
  return [...step.last.url.searchParams, ...new URLSearchParams(form)].map(([, v]) => v)
    .filter((v) => v.length >= 3 && /\p{L}/u.test(v));
}

/** The texts the steps before `step` sent. */
function sentTexts(c: Correlator, step: Step): string[] {
  const at = c.steps.indexOf(step);
  return (at < 0 ? c.steps : c.steps.slice(0, at)).flatMap(textsOf);
}

/** The text of the element `tag` (`tr`, `form`) of `html` around offset `at`, markup left out. */
function enclosingText(html: string, at: number, tag: string): string | undefined {
  const lower = html.toLowerCase();
  const start = lower.lastIndexOf(`<${tag}`, at);
  const end = lower.indexOf(`</${tag}`, at);
  if (start < 0 || end < 0 || lower.slice(start, at).includes(`</${tag}`)) return undefined;
  return html.slice(start, end).replace(/<[^>]*>/g, " ").replace(/&nbsp;/gi, " ");
}

/**
 * Whether the input at `at` of `page` shows whose number it holds: its table row shows a text an
 * earlier step sent, or, in no row, its form shows a text the page's own submission sent (a
 * create's answer says "client Bianchi inserted" beside the edit button). A form that only shows
 * what earlier steps typed is an editor of anything, its flags the page's constants.
 */
function showsOwnRow(c: Correlator, page: Step, at: number): boolean {
  const html = page.last.responseText!;
  const row = enclosingText(html, at, "tr");
  if (row !== undefined) return sentTexts(c, page).some((t) => row.includes(t));
  const form = page.first.method === "POST" ? enclosingText(html, at, "form") : undefined;
  return form !== undefined && textsOf(page).some((t) => form.includes(t));
}

/**
 * The producer of the small number `value` that `step` posts as form field `key`, read from the
 * latest page before it whose inputs named `key` all hold `value`, the first of them hidden and
 * in a table row showing a text an earlier step sent (or in a form showing one the page's own
 * submission sent), or on a page answering a request that sent
 * `value` so read (see the module); else undefined.
 *
 * @example
 * ```ts
 * import { heldNumberProducer } from "./held_numbers.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const row = (n: number) =>
 *   `<tr><td>Tide tables</td><td><form method="post"><input type="hidden" name="job" value="${n}"></form></td></tr>`;
 * const print = { name: "print", last: { url: new URL("http://p.test/print?title=Tide+tables") } };
 * const page = { name: "open_jobs", first: { method: "GET" }, last: { url: new URL("http://p.test/jobs"),
 *   mimeType: "text/html", responseText: row(1) + row(1) } };
 * const cancel = { name: "cancel", first: { method: "POST", url: new URL("http://p.test/jobs") } };
 * // deno-lint-ignore no-explicit-any
 * c.steps.push(print as any, page as any);
 * // deno-lint-ignore no-explicit-any
 * if (heldNumberProducer(c, "job", "1", cancel as any)?.step !== page) throw new Error();
 * // Two rows listed under one name: the first is a position, not the row.
 * page.last.responseText = row(1) + row(2);
 * // deno-lint-ignore no-explicit-any
 * if (heldNumberProducer(c, "job", "1", cancel as any) !== undefined) throw new Error();
 * // A form's flag in no row of the journey's own is sent as recorded.
 * page.last.responseText = '<form><input type="hidden" name="job" value="1"></form>';
 * // deno-lint-ignore no-explicit-any
 * if (heldNumberProducer(c, "job", "1", cancel as any) !== undefined) throw new Error();
 * // In no row, a form showing what the page's own submission sent (a create's answer) holds it.
 * const made = { name: "add", first: { method: "POST" }, last: { url: new URL("http://p.test/add"),
 *   bodyText: "title=Tide+tables", mimeType: "text/html",
 *   responseText: '<form>Tide tables added <input type="hidden" name="job" value="1"></form>' } };
 * // deno-lint-ignore no-explicit-any
 * c.steps.push(made as any);
 * // deno-lint-ignore no-explicit-any
 * if (heldNumberProducer(c, "job", "1", cancel as any)?.step !== made) throw new Error();
 * ```
 */
export function heldNumberProducer(
  c: Correlator,
  key: string,
  value: string,
  step: Step,
): Producer | undefined {
  if (!c.linking || !ROW.test(value) || step.first.method === "GET") return undefined;
  const named = new RegExp(`<input\\b[^>]*\\bname\\s*=\\s*["']${escape(key)}["'][^>]*>`, "gi");
  const page = latestPage(c, step, new RegExp(named.source, "i"));
  if (page === undefined) return undefined;
  const inputs = [...page.last.responseText!.matchAll(named)];
  const held = new Set(inputs.map((m) => valueOf(m[0])));
  if (held.size !== 1 || !held.has(value)) return undefined;
  if (!echoesRow(c, page, value)) {
    if (!showsOwnRow(c, page, inputs[0].index!)) return undefined;
  }
  const producer = heldHiddenProducer(c, key, value, step);
  if (producer !== undefined) noteRead(c, step, value);
  return producer;
}
