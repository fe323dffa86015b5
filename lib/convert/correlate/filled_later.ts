/**
 * Members the server adds to what the journey made a while after making it:
 * RabbitMQ answers `PUT /api/queues/v/orders-intake` 201, its queue list
 * right after shows the row with its definition only, and the statistics
 * (`consumers`, `memory`, `idle_since`…) appear seconds later, when its
 * collector has run; the user opened the queue after those seconds, so the
 * recorded detail holds them, and a replay that reads it at once does not
 * find them. The evidence is the recording's own, whatever the names: the
 * resource a read names (its path's last segment) was made by a 2xx write
 * of the journey (to that path, or a create that answered or sent that
 * name), and an answer recorded after the write listed it (a row holding
 * the name under the member the read's answer holds it under) without
 * those members. A resource the journey did not make is left alone, and so
 * is a row that lacks what the write's own answer showed: a list's row is
 * often a summary of its detail, and that says nothing of time.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import { safeDecode } from "../json.ts";
import { NamingRows } from "./naming_rows.ts";
import type { Correlator } from "./state.ts";

/** What one correlator noted so far: the JSON answers in order, and where each write came. */
interface Noted {
  answers: HarRecord[];
  /** A 2xx write's record by its path (origin and path, no trailing slash). */
  made: Map<string, HarRecord>;
  /** Each write's record, and how many answers came before it. */
  at: Map<HarRecord, number>;
  /** The rows of `answers` naming each value asked about, each answer read once per value. */
  naming: NamingRows;
}

const notedOf = new WeakMap<Correlator, Noted>();

const pathOf = (r: HarRecord) => `${r.url.origin}${r.url.pathname.replace(/\/$/, "")}`;
const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Which members of the answer of the step of `records` the server fills in
 * later (see the module), given the creates `created` of what it reads;
 * then notes `records` for the steps after.
 *
 * @example
 * ```ts
 * import { filledLater } from "./filled_later.ts";
 * import { emptyCorrelator } from "./state.ts";
 * import { parseHar } from "../har_model.ts";
 * import { loadBodies } from "../har_bodies.ts";
 * const at = "http://mq.test/api/queues";
 * const entry = (method: string, url: string, status: number, text: string) => ({
 *   request: { method, url }, response: { status, content: { mimeType: "application/json", text } },
 * });
 * const { records } = parseHar(JSON.stringify({ log: { entries: [
 *   entry("PUT", `${at}/v/q1`, 201, ""),
 *   entry("GET", at, 200, '[{"name":"q1","durable":true}]'),
 *   entry("GET", `${at}/v/q1`, 200, '{"name":"q1","durable":true,"memory":9}'),
 * ] } }), []);
 * loadBodies(records, []);
 * const c = emptyCorrelator("a", true);
 * filledLater(c, [records[0]], []);
 * filledLater(c, [records[1]], []);
 * const later = filledLater(c, [records[2]], []);
 * if (!later("memory") || later("durable")) throw new Error();
 * ```
 */
export function filledLater(
  c: Correlator,
  records: readonly HarRecord[],
  created: readonly HarRecord[],
): (key: string) => boolean {
  const noted = notedOf.get(c) ?? newNoted();
  notedOf.set(c, noted);
  const rows = rowsSinceMade(noted, records, created);
  for (const r of records) {
    const ok = r.status !== undefined && r.status >= 200 && r.status < 300;
    if (ok && (r.method === "PUT" || r.method === "POST")) {
      noted.made.set(pathOf(r), r);
      noted.at.set(r, noted.answers.length);
    }
    if (r.hasJson) noted.answers.push(r);
  }
  return (key) => rows.some((row) => !Object.hasOwn(row, key));
}

function newNoted(): Noted {
  const answers: HarRecord[] = [];
  return { answers, made: new Map(), at: new Map(), naming: new NamingRows(answers) };
}

/** The rows that listed what a read of `records` names, recorded after the journey made it. */
function rowsSinceMade(
  noted: Noted,
  records: readonly HarRecord[],
  created: readonly HarRecord[],
): Record<string, unknown>[] {
  const first = records[0];
  const last = records[records.length - 1];
  if (first.method !== "GET" || !last.hasJson || !isObject(last.json)) return [];
  const made = [noted.made.get(pathOf(first)), ...created]
    .filter((w): w is HarRecord => w !== undefined);
  const writes = made.map((w) => noted.at.get(w)).filter((n): n is number => n !== undefined);
  if (writes.length === 0) return [];
  // A write that answered the resource shows what it holds from the start: a row without
  // some of that is a summary (Taskboard's list leaves out `created_at`), which says nothing
  // of time.
  const answered = made.filter((w) => w.hasJson && isObject(w.json)).map((w) => w.json as object);
  const summary = (row: Record<string, unknown>) =>
    answered.some((json) => Object.keys(json).some((k) => !Object.hasOwn(row, k)));
  const path = first.url.pathname.replace(/\/$/, "");
  const name = safeDecode(path.slice(path.lastIndexOf("/") + 1));
  const detail = last.json;
  // Rows of one kind (naming member, members) are alike here: naming_rows.ts keeps one of each.
  const rows: Record<string, unknown>[] = [];
  for (const { key, value, row } of noted.naming.since(name, Math.min(...writes))) {
    if (detail[key] === value && !summary(row)) rows.push(row);
  }
  return rows;
}
