/**
 * A listing read before the server finished the record a write's answer named. Cronicle's
 * `run_event` answers `{"ids": ["j…"]}` while the job still runs; the page showed the job in
 * the history seconds later, finished, and the job's details (fetched by that id) exist only
 * then. A replay reads the history at once, meets no job, and the read of its details fails,
 * with every step after it. The evidence, whatever the names: a value the write's answer
 * handed out (no record before held it) is first shown by a later read that can be sent again
 * (a GET, or a request the recording sends again unchanged), with no other write between, a
 * later request sends the value (the flow relies on the record), and the record, as the read
 * lists it or as the first request that sends the value is answered, carries a time between
 * the write's answer and the read: the server went on with it after answering. Such a read is
 * sent again, 250 ms apart, until its body shows the captured value, for twice the recorded
 * wait (2 s at least, a minute at most); a server that lists it at once is read once.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import { parseBody, safeDecode, walk } from "../json.ts";
import type { Step } from "../model.ts";
import { useProducer } from "./captures.ts";
import type { Correlator } from "./state.ts";

/** The pause between two reads. */
const SLEEP_MS = 250;
/** Records after the write searched for the read that lists the value. */
const NEAR = 20;
/** Records searched before the write, and after the read, for the value. */
const LOOK = 200;
/** Answered values looked at per write: a long list answer stays cheap. */
const PER_WRITE = 20;
const WRITES = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/** A value distinct enough to be looked for in a body: a letter and a digit, six characters. */
const DISTINCT = /^(?=.*\p{L})(?=.*\d)[^\s]{6,200}$/u;
const SECONDS = /^\d{10}(?:\.\d{1,6})?$/;
const MILLIS = /^\d{13}$/;

/**
 * Notes in `c.listedLater` each read that listed, finished later, a record a write's answer
 * named (see the module).
 *
 * @example
 * ```ts
 * import { noteListedLater } from "./listed_later.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const r = (method: string, path: string, started: number, responseText: string, bodyText = "") =>
 *   ({ method, url: new URL(`https://a.test${path}`), started, responseText, bodyText, raw: {} });
 * const run = r("POST", "/run", 1_796_036_491_000, '{"ids":["job4a2"]}');
 * const list = r("GET", "/history", 1_796_036_495_000, '{"rows":[{"id":"job4a2","ended":1796036492.3}]}');
 * const read = r("POST", "/details", 1_796_036_496_000, "{}", '{"id":"job4a2"}');
 * // deno-lint-ignore no-explicit-any
 * noteListedLater(c, [run, list, read] as any);
 * if (c.listedLater.get(list as any)?.value !== "job4a2") throw new Error();
 * ```
 */
export function noteListedLater(c: Correlator, ordered: readonly HarRecord[]): void {
  ordered.forEach((write, i) => {
    if (!WRITES.has(write.method) || write.started === undefined) return;
    for (const value of answeredValues(write)) {
      const read = listingOf(ordered, i, value);
      if (read) return void c.listedLater.set(read, { write, value });
    }
  });
}

/**
 * Gives `step` a loop until its body shows the value a write's answer named, when the
 * recording says the server finished that record only later (see the module).
 *
 * @example
 * ```ts
 * import { awaitListed } from "./listed_later.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * const read = { started: 5000 };
 * // deno-lint-ignore no-explicit-any
 * const step = { last: read, uses: new Set() } as any;
 * awaitListed(c, step);
 * if (step.loop !== undefined) throw new Error("nothing listed");
 * ```
 */
export function awaitListed(c: Correlator, step: Step): void {
  const listed = step.loop || c.sp.name !== "a" ? undefined : c.listedLater.get(step.last);
  const producer = listed && c.rules.producerFor(listed.value);
  if (!listed || !producer) return;
  const waited = (step.last.started ?? NaN) - (listed.write.started ?? NaN);
  const bound = Math.min(60_000, Math.max(2_000, 2 * (Number.isFinite(waited) ? waited : 0)));
  const shows = useProducer(c, producer, step);
  const maxAttempts = Math.ceil(bound / SLEEP_MS) + 1;
  step.loop = { maxAttempts, sleepMs: SLEEP_MS, path: [], value: null, values: [], shows };
  step.loop.answered = true;
}

/** The distinct string values of the write's JSON answer, at most `PER_WRITE`. */
function answeredValues(write: HarRecord): string[] {
  const out = new Set<string>();
  walk(parsed(write.responseText), (_p, _k, leaf) => {
    if (typeof leaf === "string" && DISTINCT.test(leaf) && out.size < PER_WRITE) out.add(leaf);
  });
  return [...out];
}

/**
 * The read that first lists `value` after `ordered[at]`, if the evidence holds: no other write
 * between, a later request sends the value, and the listed item, or the one the first request
 * that sends the value is answered, shows the record changed between the write's answer and
 * the read.
 */
function listingOf(
  ordered: readonly HarRecord[],
  at: number,
  value: string,
): HarRecord | undefined {
  if (ordered.slice(Math.max(0, at - LOOK), at).some((r) => holds(r, value))) return undefined;
  for (let j = at + 1; j < Math.min(ordered.length, at + 1 + NEAR); j++) {
    const read = ordered[j];
    if (sends(read, value)) return undefined;
    if (!read.responseText?.includes(value)) {
      if (WRITES.has(read.method) && !repeatable(ordered, read)) return undefined;
      continue;
    }
    const use = ordered.slice(j + 1, j + 1 + LOOK).find((r) => sends(r, value));
    if (!use || !repeatable(ordered, read)) return undefined;
    const within: Window = [answeredAt(ordered[at]), read.started ?? NaN];
    return [read, use].some((r) => changedWithin(r, value, within)) ? read : undefined;
  }
  return undefined;
}

/** Whether `r` sent or answered `value`. */
function holds(r: HarRecord, value: string): boolean {
  return sends(r, value) || !!r.responseText?.includes(value);
}

/** Whether `r` sends `value` in its URL or body. */
function sends(r: HarRecord, value: string): boolean {
  const url = `${safeDecode(r.url.pathname)} ${safeDecode(r.url.search)}`;
  return url.includes(value) || !!r.bodyText?.includes(value);
}

/** A read that may be sent again: a GET or HEAD, or a request the recording repeats unchanged. */
function repeatable(ordered: readonly HarRecord[], read: HarRecord): boolean {
  if (read.method === "GET" || read.method === "HEAD") return true;
  return ordered.some((r) =>
    r !== read && r.method === read.method && r.url.href === read.url.href &&
    (r.bodyText ?? "") === (read.bodyText ?? "")
  );
}

/** When the write's answer had come (ms): its start and its recorded time. */
function answeredAt(write: HarRecord): number {
  const time = write.raw?.time;
  return (write.started ?? NaN) + (typeof time === "number" && time > 0 ? time : 0);
}

/** From the write's answer to the read, in ms. */
type Window = [number, number];

/**
 * Whether an item of `r`'s answer that holds `value` carries a time (Unix seconds or
 * milliseconds) within `window`: the record changed after the write was answered and before
 * the read was sent.
 */
function changedWithin(r: HarRecord, value: string, [after, before]: Window): boolean {
  let found = false;
  const visit = (v: unknown): void => {
    if (found || typeof v !== "object" || v === null) return;
    const items = Object.values(v);
    if (!Array.isArray(v) && items.includes(value)) {
      found = items.some((x) => {
        const t = instant(x);
        return t !== undefined && t > after && t <= before;
      });
    }
    items.forEach(visit);
  };
  visit(parsed(r.responseText));
  return found;
}

/** The instant (ms) a number or digits name as Unix seconds or milliseconds, else undefined. */
function instant(x: unknown): number | undefined {
  if (typeof x !== "number" && typeof x !== "string") return undefined;
  const s = String(x);
  if (SECONDS.test(s)) return Number(s) * 1000;
  if (MILLIS.test(s)) return Number(s);
  return undefined;
}

/** The JSON of a text, or undefined. */
function parsed(text: string | undefined): unknown {
  try {
    return text ? parseBody(text) : undefined;
  } catch {
    return undefined;
  }
}
