/**
 * Row numbers a create at an action path answered, sent back under a sibling path or named by
 * a field: AdminJS creates at `POST /admin/api/resources/Authors/actions/new` (answer
 * `{"record": {"id": 1, …}}`) and addresses the row at `…/Authors/records/1/edit`, and a later
 * form sends `authorId=1`; Rails' `POST /posts/create` answers `{"id": 1}` and the row is
 * `/posts/1`. A number that small is no evidence on its own, and `created_ids.ts` takes it only
 * right under the path that created it, so here the evidence is read from the material:
 *
 * - the answer holds the number as its record's own `id`, at the top or in an object whose
 *   key names the record (`record.id`, `record.params.id`);
 * - a path shares the create's path up to a word segment (the collection, `Authors`), the rest
 *   of the create's path is words (the action, `actions/new`), and between the shared part and
 *   the number the path names nothing, or the record the answer named (`records`);
 * - a field named for a word of the create's path (`authorId`, `author_id` after a create under
 *   `…/Authors/…`) names that create's row, and a field `id` the row the request's own path
 *   addresses by the same number (an edit form sends the record's `id` back).
 *
 * A page number under another word (`…/Authors/pages/2`), a number inside the create's path,
 * and fields named for nothing created (`rating`, `page`, `limit`) stay as recorded.
 *
 * @module
 */
import { safeDecode } from "../json.ts";
import type { Producer, Step } from "../model.ts";
import { singular } from "../names.ts";
import { createdIdProducer } from "./created_ids.ts";
import type { Correlator } from "./state.ts";

const ROW = /^\d{1,15}$/;
const WORD = /^[A-Za-z][A-Za-z_-]*$/;

/** A create's row: its path's segments and the key of the object that held its `id`. */
interface CreatedRow {
  producer: Producer;
  segments: string[];
  /** The key of the object the `id` was in (`record`), or "" for the answer's top. */
  wrapper: string;
}

/** The rows creates answered with the number `value` as their record's own `id`, oldest first. */
function createdRows(c: Correlator, value: string): CreatedRow[] {
  const rows: CreatedRow[] = [];
  for (const [key, member] of c.members) {
    const source = member.producer.source;
    // Created_ids.ts keys a create's row by its path and number; other members are kept apart.
    if (key !== `${member.under}\u0000${value}` || source.kind !== "json") continue;
    const path = source.path;
    const last = String(path.at(-1) ?? "").toLowerCase();
    if (last !== "id" && last !== "_id") continue;
    if (!path.every((p) => typeof p === "string")) continue;
    // The first of one or two objects down names the record (`record.id`, `record.params.id`).
    const wrapper = path.length > 1 ? String(path[0]) : "";
    rows.push({ producer: member.producer, segments: segmentsOf(member.under), wrapper });
  }
  return rows;
}

const segmentsOf = (path: string) => path.split("/").filter((s) => s !== "");

/** Whether a segment names the record an answer held under `wrapper` (`records`, `record`). */
function namesRecord(segment: string, wrapper: string): boolean {
  const word = segment.toLowerCase();
  return wrapper !== "" &&
    (word === wrapper.toLowerCase() || singular(word) === wrapper.toLowerCase());
}

/**
 * The create whose row a request sends as the path segment `segment` after `under`, when that
 * path is a sibling of the create's (see the module), the one sharing the most of it first; else
 * undefined.
 *
 * @example
 * ```ts
 * import { noteCreatedIds } from "./created_ids.ts";
 * import { siblingRowProducer } from "./sibling_rows.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const url = new URL("http://a.test/api/resources/Authors/actions/new");
 * const last = { method: "POST", status: 200, url, hasJson: true, json: { record: { id: 1 } } };
 * // deno-lint-ignore no-explicit-any
 * noteCreatedIds(c, { last } as any);
 * if (siblingRowProducer(c, "/api/resources/Authors/records", "1") === undefined) throw new Error();
 * if (siblingRowProducer(c, "/api/resources/Authors/pages", "1") !== undefined) throw new Error();
 * if (siblingRowProducer(c, "/api/resources/Posts/records", "1") !== undefined) throw new Error();
 * ```
 */
export function siblingRowProducer(
  c: Correlator,
  under: string,
  segment: string,
): Producer | undefined {
  if (!ROW.test(segment)) return undefined;
  const path = segmentsOf(under);
  let best: { producer: Producer; shared: number } | undefined;
  for (const row of createdRows(c, String(Number(segment)))) {
    let shared = 0;
    while (shared < path.length && path[shared] === row.segments[shared]) shared++;
    const action = row.segments.slice(shared);
    const between = path.slice(shared);
    if (shared === 0 || !WORD.test(path[shared - 1])) continue;
    if (action.length === 0 || !action.every((s) => WORD.test(s))) continue;
    if (between.length > 1 || (between.length === 1 && !namesRecord(between[0], row.wrapper))) {
      continue;
    }
    if (best === undefined || shared >= best.shared) best = { producer: row.producer, shared };
  }
  return best?.producer;
}

/**
 * The create whose row a field `key` names (`authorId`, `author_id`, `filters.authorId`) when it
 * sends `value` and a word of that create's path is the field's noun (`Authors`); the latest
 * such create, never `step` itself; else undefined.
 *
 * @example
 * ```ts
 * import { noteCreatedIds } from "./created_ids.ts";
 * import { namedRowProducer } from "./sibling_rows.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const url = new URL("http://a.test/api/resources/Authors/actions/new");
 * const last = { method: "POST", status: 200, url, hasJson: true, json: { record: { id: 1 } } };
 * // deno-lint-ignore no-explicit-any
 * noteCreatedIds(c, { last } as any);
 * const post = { last: { url: new URL("http://a.test/api/resources/Posts/actions/new") } };
 * // deno-lint-ignore no-explicit-any
 * if (namedRowProducer(c, "authorId", "1", post as any) === undefined) throw new Error();
 * // deno-lint-ignore no-explicit-any
 * if (namedRowProducer(c, "rating", "1", post as any) !== undefined) throw new Error();
 * ```
 */
export function namedRowProducer(
  c: Correlator,
  key: string,
  value: string,
  step: Step,
): Producer | undefined {
  const name = key.split(/[^A-Za-z0-9_-]+/).filter((p) => p !== "").at(-1) ?? "";
  if (!ROW.test(value)) return undefined;
  if (/^_?id$/i.test(name)) return addressedRow(c, value, step);
  const noun = /^([A-Za-z][A-Za-z0-9]*?)(?:[_-](?:id|Id|ID)|Id|ID)$/.exec(name)?.[1]?.toLowerCase();
  if (noun === undefined) return undefined;
  const named = (s: string) => WORD.test(s) && singular(s.toLowerCase()) === noun;
  const rows = createdRows(c, String(Number(value)));
  const found = rows.findLast((row) => row.producer.step !== step && row.segments.some(named));
  return found?.producer;
}

/**
 * The create whose row the request's own path addresses by the number `value` (an edit form
 * at `…/records/1/edit` that sends the record's `id=1` back among its fields), else undefined.
 */
function addressedRow(c: Correlator, value: string, step: Step): Producer | undefined {
  const segments = step.last.url.pathname.split("/");
  for (let at = 1; at < segments.length; at++) {
    if (segments[at] !== value) continue;
    const under = safeDecode(segments.slice(0, at).join("/"));
    const found = createdIdProducer(c, under, value) ?? siblingRowProducer(c, under, value);
    if (found !== undefined) return found.step === step ? undefined : found;
  }
  return undefined;
}
