/**
 * What a write's 2xx answer shows marking success. Many servers refuse a
 * write with a 200 whose text says so: Raneto answers a second create of a
 * category `{"status":1,"message":{"code":"EEXIST"}}` where the first got
 * `{"status":0,…}`, and a server-rendered form answers the same page with
 * another flash message. A check of the status alone passes over the refusal
 * (a second run on one instance goes on acting on the first run's data), so
 * a write (POST, PUT, PATCH, DELETE) answered 200 or 201 also checks:
 *
 * - in JSON, a top-level verdict member (`status`, `code`, `success`, `ok`,
 *   `errno`, …) holding 0, 1 or a 2xx code: its recorded value, where the type alone
 *   was checked (booleans and words are already pinned by `assertions.ts`);
 *   not when a later request writes a member of that name, as it is then the
 *   resource's state, not the answer's verdict;
 * - in HTML, the text of the page's first flash message (an element marked
 *   `role="alert"`, `role="status"`, `aria-live`, or a class word such as
 *   `flash`, `alert-success`, `flash-notice`, `toast`, `message`, closed
 *   within 2,000 characters, so never a page's wrapper): its longest text that
 *   holds no digit (ids, counts, times), none of what the request sent
 *   (typed text, or a name the server made of it), and that no other page of
 *   the recording shows (a menu's or a tooltip's words are every page's, no
 *   verdict), found in the answer as it is, so `$.body contains` reads it as
 *   recorded.
 *
 * @module
 */
import type { HarRecord } from "./har_model.ts";
import { loadBodies } from "./har_bodies.ts";
import { parseBody, walk } from "./json.ts";
import type { Step } from "./model.ts";
import { yflow } from "./yaml_out.ts";

const WRITE = /^(POST|PUT|PATCH|DELETE)$/;
const VERDICT_KEY =
  /^(status|status_?code|code|success|ok|errno|err_?code|error_?code|ret|ret_?code|result_?code|rc)$/i;
/** An element's opening tag: its name and attributes. */
const OPEN_TAG = /<([a-z][a-z0-9]*)\b([^>]*)>/gi;
/** The attributes that mark a message to the user. */
const MESSAGE_ROLE = /\s(?:role\s*=\s*["']?(?:alert|status)\b|aria-live\s*=)/i;
/** A class that names a message (`flash`, `alert-success`, `flash-notice`), one word of it at most. */
const MESSAGE_CLASS =
  /^(?:[a-z]+[-_])?(?:flash|alert|notice|notification|toast|messages?|success)(?:[-_][a-z]+)?$/i;
/** The most flash elements read, and the most characters of one. */
const MAX_FLASHES = 5;
const MAX_INNER = 2000;

/**
 * Adds the checks of what `step`'s recorded answer shows marking success,
 * when it is a write answered 200 or 201; `changes` says whether a later
 * request of the flow writes a member of that name.
 *
 * @example
 * ```ts
 * import { addWriteVerdict } from "./write_verdict.ts";
 * const last = { status: 200, mimeType: "application/json", hasJson: true, json: { status: 0 } };
 * const checks: { path: string[]; op: string; value: unknown }[] = [{ path: ["status"], op: "type", value: "number" }];
 * const step = { method: "POST", first: { bodyText: "{}" }, last, checks };
 * // deno-lint-ignore no-explicit-any
 * addWriteVerdict(step as any, () => false);
 * if (checks[0].op !== "equals" || checks[0].value !== 0) throw new Error();
 * ```
 */
export function addWriteVerdict(
  step: Step,
  changes: (key: string, r: HarRecord) => boolean,
  pages: readonly HarRecord[] = [],
): void {
  const r = step.last;
  if (!WRITE.test(step.method) || (r.status !== 200 && r.status !== 201)) return;
  if (r.hasJson) return pinVerdict(step, changes);
  if (!/^(text\/html|application\/xhtml\+xml)$/.test(r.mimeType) || !r.responseText) return;
  const others = pages.filter((p) => !step.records.includes(p));
  const elsewhere = (text: string) => others.some((p) => pageText(p).includes(text));
  const phrase = flashPhrase(r.responseText, sentWords(step.first), elsewhere);
  if (phrase === undefined) return;
  step.ownChecks = [...step.ownChecks ?? [], yflow([["path", "$.body"], ["contains", phrase]])];
}

/** Turns the type check of a JSON verdict member holding an integer into its recorded value. */
function pinVerdict(step: Step, changes: (key: string, r: HarRecord) => boolean): void {
  const json = step.last.json;
  if (typeof json !== "object" || json === null || Array.isArray(json)) return;
  for (const check of step.checks) {
    const key = check.path.length === 1 ? String(check.path[0]) : "";
    const value = (json as Record<string, unknown>)[key];
    if (check.op !== "type" || check.xpath || !VERDICT_KEY.test(key)) continue;
    if (!verdictNumber(value)) continue;
    if (changes(key, step.last)) continue;
    check.op = "equals";
    check.value = value as number;
  }
}

/**
 * A number that reads as a verdict: 0 or 1, or an HTTP success code. Any other (`"code": 17`) may be
 * a number the server counted out for the new item, which another instance counts otherwise.
 */
function verdictNumber(value: unknown): boolean {
  return value === 0 || value === 1 || (Number.isInteger(value) && (value as number) >= 200 &&
    (value as number) < 300);
}

/** The words of what `r` sent in its body and query (typed text), lower case. */
function sentWords(r: HarRecord): string[] {
  const values: string[] = [...r.url.searchParams.values()];
  const text = r.bodyText ?? "";
  if (r.bodyMime === "application/x-www-form-urlencoded") {
    values.push(...new URLSearchParams(text).values());
  } else if (/json/.test(r.bodyMime ?? "")) {
    try {
      walk(parseBody(text), (_p, _k, leaf) => values.push(String(leaf)));
    } catch {
      /* not JSON after all: its text is what was sent */ values.push(text);
    }
  } else if (text !== "") values.push(text);
  return [...new Set(values.flatMap((v) => v.toLowerCase().split(/[^\p{L}\p{N}]+/u)))]
    .filter((w) => w.length >= 3);
}

/** The first flash message's longest text node fit to check, or `undefined`. */
function flashPhrase(
  html: string,
  sent: readonly string[],
  elsewhere: (text: string) => boolean,
): string | undefined {
  const page = html.replace(/<(script|style|template)\b[\s\S]*?<\/\1\s*>/gi, "");
  let read = 0;
  for (const open of page.matchAll(OPEN_TAG)) {
    if (!marksMessage(open[2])) continue;
    if (read++ >= MAX_FLASHES) break;
    const start = open.index + open[0].length;
    const inner = innerOf(page.slice(start, start + MAX_INNER), open[1]);
    const texts = inner.split(/<[^>]*>/).map((t) => t.trim()).filter((t) =>
      fit(t, sent) && !elsewhere(t)
    );
    const best = texts.sort((a, b) => b.length - a.length)[0];
    if (best !== undefined) return best;
  }
  return undefined;
}

/** A page's text, its body decoded when nothing read it yet (a dropped page). */
function pageText(r: HarRecord): string {
  if (r.responseText === undefined) loadBodies([r], []);
  return r.responseText ?? "";
}

/** Whether an opening tag's attributes mark its element as a message to the user. */
function marksMessage(attributes: string): boolean {
  if (MESSAGE_ROLE.test(attributes)) return true;
  const classes = /\sclass\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(attributes);
  const words = (classes?.[1] ?? classes?.[2] ?? "").split(/\s+/);
  return words.some((w) => MESSAGE_CLASS.test(w));
}

/**
 * `rest` up to the tag that closes the element named `tag` (nested ones counted), or `""`
 * when it does not close within `rest`: a page's wrapper, not a message.
 */
function innerOf(rest: string, tag: string): string {
  const tags = new RegExp(`<(/?)${tag}\\b[^>]*>`, "gi");
  let depth = 1;
  for (const m of rest.matchAll(tags)) {
    depth += m[1] === "/" ? -1 : 1;
    if (depth === 0) return rest.slice(0, m.index);
  }
  return "";
}

/** Whether text can be checked on a new run: words, no digit, no entity, none of `sent`. */
function fit(text: string, sent: readonly string[]): boolean {
  if (text.length < 6 || text.length > 120 || /[\d&\n\r]/.test(text)) return false;
  if (!/\p{L}{3}/u.test(text)) return false;
  const words = text.toLowerCase().split(/[^\p{L}\p{N}]+/u);
  return !words.some((w) => sent.includes(w));
}
