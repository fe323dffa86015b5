/**
 * Row ids a search answered beside the name the journey gave the row: a picker asks
 * `search.php?search=Harb` and is answered `{"result": [{"name": "Harbour East", "id": "20"}]}`,
 * and the save then sends `groups[0]=20`. A number that small is no evidence on its own; here
 * the evidence is the name: the journey itself sent `Harbour East` before (it named the row) and
 * the search looked it up by part of it, so the row is the journey's, and a second run's own
 * row is found again by that name
 * (`captures.ts` `stablePath` picks the list element by it). Only a form or body a write sends
 * takes it; the latest answer that listed the number is its source. A table's server-side read
 * posts its search in a form (DataTables' `search[value]=SN-TEST`, answered `{"data": [{"ID":
 * "35", …}]}`): a POSTed form searches too, by a value no earlier request sent (what the user
 * typed into the search box, not the columns every read of the table sends), and the row's
 * `id` member may be spelt in capitals.
 *
 * @module
 */

import { safeDecode, valueKey } from "../json.ts";
import type { Producer, Step } from "../model.ts";
import type { Correlator } from "./state.ts";
import { listsOf } from "./listed_rows.ts";

const ROW = /^\d{1,15}$/;

/** Where a searched row is kept among the members: apart from a create's. */
const rowKey = (id: string) => `searched-row\u0000${Number(id)}`;

/** The texts read so far of a correlator's steps, in order: `upTo` steps, the last one `last`. */
const read = new WeakMap<Correlator, { upTo: number; last?: Step; texts: Set<string> }>();

/**
 * The texts the journey's earlier requests sent: form and query values. Kept per correlator and
 * read on from where the last answer left off, as steps are only ever appended while they are
 * made: read whole at each answer, a long recording of form posts took quadratic time
 * (`har_repeats_scale_test.ts`).
 */
function sentTexts(c: Correlator, step: Step): Set<string> {
  let at = read.get(c);
  if (!at || at.upTo > c.steps.length || c.steps[at.upTo - 1] !== at.last) {
    at = { upTo: 0, texts: new Set() };
    read.set(c, at);
  }
  for (; at.upTo < c.steps.length && c.steps[at.upTo] !== step; at.upTo++) {
    const s = c.steps[at.upTo];
    for (const [, v] of s.last.url.searchParams) at.texts.add(v);
    const body = s.last.bodyText ?? "";
    if (/^[^=&\s{[]+=[^&]*(?:&[^=&\s]+=[^&]*)*$/.test(body)) {
      for (const [, v] of new URLSearchParams(body)) at.texts.add(v);
    }
    at.last = s;
  }
  return at.texts;
}

/**
 * Whether the row holds a text of words the journey sent before this answer and that holds a
 * search text the request sent (`search=Harb`): the user looked that row up by its name.
 */
function namedBySession(
  c: Correlator,
  sent: Set<string>,
  searched: string[],
  row: Record<string, unknown>,
): boolean {
  return Object.entries(row).some(([k, v]) =>
    k !== "id" && typeof v === "string" && v.length <= 200 && /\p{L}/u.test(v) &&
    (sent.has(v) || c.sentSeen.has(valueKey(v))) &&
    searched.some((q) => v.toLowerCase().includes(q))
  );
}

/**
 * Notes the rows a search's 2xx JSON answer listed with a small `id` beside a name the journey
 * sent before and the search looked up (see the module).
 *
 * @example
 * ```ts
 * import { noteSearchedRows, searchedRowProducer } from "./searched_rows.ts";
 * import { valueKey } from "../json.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * c.sentSeen.add(valueKey("Harbour"));
 * const json = { result: [{ name: "Harbour", id: "20" }, { name: "Other", id: "1" }] };
 * const url = new URL("http://a.test/search?q=Harb");
 * const search = { last: { method: "GET", status: 200, url, hasJson: true, json } };
 * // deno-lint-ignore no-explicit-any
 * noteSearchedRows(c, search as any);
 * const save = { first: { method: "POST" } };
 * // deno-lint-ignore no-explicit-any
 * if (searchedRowProducer(c, "20", save as any) === undefined) throw new Error();
 * // deno-lint-ignore no-explicit-any
 * if (searchedRowProducer(c, "1", save as any) !== undefined) throw new Error();
 * ```
 */
export function noteSearchedRows(c: Correlator, step: Step): void {
  const r = step.last;
  if (!r.hasJson || r.status === undefined || r.status < 200 || r.status > 299) return;
  // What earlier requests sent is read only for an answer that may list searched rows: read for
  // every answer, it walked every earlier step at each (quadratic in a long recording).
  let texts: Set<string> | undefined;
  const sentNow = () => texts ??= sentTexts(c, step);
  const searched = searchTexts(step, sentNow);
  const lists = searched.length > 0 ? listsOf(r.json) : [];
  if (lists.length === 0) return;
  const sent = sentNow();
  for (const [at, rows] of lists) {
    rows.forEach((row, i) => {
      if (typeof row !== "object" || row === null || Array.isArray(row)) return;
      const idKey = Object.keys(row).find((k) => k.toLowerCase() === "id");
      const id = idKey === undefined ? undefined : (row as Record<string, unknown>)[idKey];
      if (
        !ROW.test(String(id)) || !namedBySession(c, sent, searched, row as Record<string, unknown>)
      ) return;
      c.members.set(rowKey(String(id)), {
        producer: { step, source: { kind: "json", path: [...at, i, idKey!] }, secret: false },
        under: safeDecode(r.url.pathname),
      });
    });
  }
}

/**
 * What a read searched for: a text of letters its query sends (what the user typed in the
 * picker), or, a POSTed form, one of its values no earlier request sent (what the user typed
 * into a table's search box; the column names and flags every read of the table sends are not).
 */
function searchTexts(step: Step, sent: () => Set<string>): string[] {
  const r = step.last;
  const typed = (v: string) => v.trim().length >= 2 && /^\p{L}/u.test(v.trim());
  if (r.method === "GET") {
    return [...r.url.searchParams.values()].filter(typed).map((v) => v.trim().toLowerCase());
  }
  const body = r.bodyText ?? "";
  if (r.method !== "POST" || !/^[^=&\s{[]+=[^&]*(?:&[^=&\s]+=[^&]*)*$/.test(body)) return [];
  const values = [...new URLSearchParams(body).values()].filter(typed);
  if (values.length === 0) return [];
  const earlier = sent();
  return values.filter((v) => !earlier.has(v)).map((v) => v.trim().toLowerCase());
}

/**
 * The answer that listed row `value` beside a name the journey sent, when a write sends it;
 * else undefined.
 *
 * @example
 * ```ts
 * import { searchedRowProducer } from "./searched_rows.ts";
 * import { emptyCorrelator } from "./state.ts";
 * // deno-lint-ignore no-explicit-any
 * if (searchedRowProducer(emptyCorrelator("a", true), "20", { first: { method: "POST" } } as any)) {
 *   throw new Error("no answer listed row 20");
 * }
 * ```
 */
export function searchedRowProducer(
  c: Correlator,
  value: string,
  step: Step,
): Producer | undefined {
  if (!ROW.test(value) || step.first.method === "GET") return undefined;
  const found = c.members.get(rowKey(value));
  return found === undefined || found.producer.step === step ? undefined : found.producer;
}
