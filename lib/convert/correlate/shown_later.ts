/**
 * A read of what a write sent, which the server showed only a while after
 * answering the write: its work goes on after the answer (a status file
 * written every few seconds, a file watcher, a queue, an index). The user's
 * pace gave it that while; a replay reads at once, meets the state before the
 * write, and what the steps after it take from the read (a row's id, the
 * form that deletes it) is missing. The evidence, whatever the names: a text
 * the latest write sent, held by no record before that write, is in the
 * read's recorded answer, and either the page read it again until it showed
 * it (an earlier repeat of the same read lacked it; one whose answer the
 * recording lost says nothing) or the write was answered
 * 202 Accepted (its work not done). Such a read is sent again, 250 ms apart,
 * until its body shows that text, for twice the recorded wait (2 s at least,
 * a minute at most); a server that shows it at once is read once, so a
 * replay is slowed only where the server needs it.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import { parseBody, safeDecode, walk } from "../json.ts";
import type { Step } from "../model.ts";
import { EARLIER_READS } from "../polls.ts";
import type { Correlator } from "./state.ts";

/** The pause between two reads. */
const SLEEP_MS = 250;
/** Records before the write searched for the text: a long journey stays linear. */
const LOOK_BACK = 200;
/** Steps between the write and the read: a read far after it met the effect by then. */
const NEAR = 20;

/**
 * Gives `step` a loop until its body shows what the latest write sent, when
 * the recording says the server showed it only later (see the module).
 *
 * @example
 * ```ts
 * import { awaitShown } from "./shown_later.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * import { EARLIER_READS } from "../polls.ts";
 * const c = newCorrelator("a");
 * const r = (method: string, url: string, responseText: string, bodyText?: string) => ({
 *   method, url: new URL(url), status: 200, responseText, bodyText, headers: [], started: 0,
 *   bodyMime: "application/x-www-form-urlencoded",
 * });
 * const add = r("POST", "http://a.test/cmd", "Submitted.", "com_data=Harbour+check");
 * // deno-lint-ignore no-explicit-any
 * c.steps.push({ method: "POST", first: add, last: add, records: [add] } as any);
 * const read = r("GET", "http://a.test/host", "<td>Harbour check</td>");
 * // deno-lint-ignore no-explicit-any
 * EARLIER_READS.set(read as any, [r("GET", "http://a.test/host", "<td></td>")] as any);
 * // deno-lint-ignore no-explicit-any
 * const step = { method: "GET", first: read, last: read, records: [read] } as any;
 * awaitShown(c, step);
 * if (step.loop?.shows !== "Harbour check") throw new Error(JSON.stringify(step.loop));
 * ```
 */
export function awaitShown(c: Correlator, step: Step): void {
  const at = isRead(c, step) ? latestWrite(c.steps) : -1;
  if (at === -1) return;
  const write = c.steps[at].last;
  const shown = sentTexts(write).find((v) => !c.secrets.has(v) && awaited(c, at, step.last, v));
  if (shown === undefined) return;
  const sent = c.generated.get(shown);
  // A text the run makes afresh is awaited as the run sends it; one made anew at each use is not.
  if (sent !== undefined && (!/^\$\{[^}]+\}$/.test(sent) || sent.includes("RANDOM."))) return;
  step.loop = loopUntil(step.last, write, sent ?? c.sp.lit(shown));
}

/** Whether `step` is a 2xx read with a body, not polled already, in spelling A (`$.body`). */
function isRead(c: Correlator, step: Step): boolean {
  const status = step.last.status ?? 0;
  return !step.loop && c.sp.name === "a" && ["GET", "HEAD"].includes(step.method) &&
    status >= 200 && status <= 299 && !!step.last.responseText;
}

/** The loop until the body shows `shows`, bounded at twice the wait from `write` to `read`. */
function loopUntil(read: HarRecord, write: HarRecord, shows: string): NonNullable<Step["loop"]> {
  const waited = (read.started ?? NaN) - (write.started ?? NaN);
  const bound = Math.min(60_000, Math.max(2_000, 2 * (Number.isFinite(waited) ? waited : 0)));
  const maxAttempts = Math.ceil(bound / SLEEP_MS) + 1;
  return { maxAttempts, sleepMs: SLEEP_MS, path: [], value: null, values: [], shows };
}

/**
 * Whether `read` shows `text` the write `c.steps[at]` sent only after a
 * recorded wait: an earlier repeat of the read lacked it (or the write was
 * answered 202), no answer since the write had it, no record before it held it.
 */
function awaited(c: Correlator, at: number, read: HarRecord, text: string): boolean {
  if (!read.responseText?.includes(text)) return false;
  const write = c.steps[at].last;
  // A repeat whose answer the recording lost (an empty or absent text: the page navigated while
  // it came) shows nothing of what the server held, so it never lacked the text.
  const earlier = (EARLIER_READS.get(read) ?? []).filter((e) => !!e.responseText);
  if (write.status !== 202 && !earlier.some((e) => !e.responseText!.includes(text))) return false;
  const since = c.steps.slice(at + 1).some((s) =>
    s.records.some((e) => e.responseText?.includes(text))
  );
  return !since && !heldBefore(c, at, text);
}

/** The index of the latest write among the last `NEAR` steps, or -1: never a scan of the whole journey. */
function latestWrite(steps: Step[]): number {
  for (let i = steps.length - 1; i >= Math.max(0, steps.length - NEAR); i--) {
    if (!["GET", "HEAD", "OPTIONS"].includes(steps[i].method)) return i;
  }
  return -1;
}

/** Whether one of the `LOOK_BACK` records before `steps[at]` sent or answered `value`. */
function heldBefore(c: Correlator, at: number, value: string): boolean {
  let seen = 0;
  for (let i = at - 1; i >= 0 && seen < LOOK_BACK; i--) {
    for (const e of c.steps[i].records) {
      seen++;
      if (e.responseText?.includes(value) || e.bodyText?.includes(value)) return true;
      if (safeDecode(e.url.search.replaceAll("+", " ")).includes(value)) return true;
    }
  }
  return false;
}

/**
 * The texts a write sent that a page could show: form and query values and
 * JSON strings with a letter, four characters or more, never a secret.
 */
function sentTexts(r: HarRecord): string[] {
  const out = [...r.url.searchParams.values()];
  const body = r.bodyText ?? "";
  if (/urlencoded/i.test(r.bodyMime ?? "")) out.push(...new URLSearchParams(body).values());
  else if (/json/i.test(r.bodyMime ?? "")) {
    try {
      walk(parseBody(body), (_p, _k, leaf) => typeof leaf === "string" && out.push(leaf));
    } catch {
      // Not JSON after all: nothing to await.
    }
  }
  return out.filter((v) => v.trim().length >= 4 && v.length < 500 && /\p{L}/u.test(v));
}
