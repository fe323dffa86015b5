/**
 * Small ids a write answered under a key that names their collection: n8n's
 * `POST /rest/workflows/{id}/run` answers `{"data": {"executionId": "1"}}`
 * and the page reads `GET /rest/executions/1`. A number that small is no
 * evidence on its own and `created_ids.ts` takes it only right under the
 * path that made it; here the key is the evidence: `executionId` says the
 * number is an execution's, so the path segment right after a segment
 * naming executions (`executions`, `execution`) is that row. Sent as
 * recorded, a second run on the same instance reads the first run's row.
 * A number after any other word (`/pages/1`) stays as recorded.
 *
 * A key may name the collection by its initial only: NodeBB's thread create
 * answers `{"tid": 2, "mainPid": 2}` and the page then edits `/posts/2` and
 * deletes `/topics/2/state`. A key that is one letter and `id` (`tid`), or
 * ends in a capital letter and `id` after a word (`mainPid`), is taken as the
 * id of a collection whose word begins with that letter, right after that
 * word, and only when no key spelled the word in full. The initial is all
 * such a key says: `/pages/2` after a `mainPid` of 2 is read from it too.
 *
 * @module
 */
import type { Producer, Step } from "../model.ts";
import { singular, snake } from "../names.ts";
import type { Correlator } from "./state.ts";

/** `executionId`, `execution_id`: the collection's word and the id. */
const NAMED_ID = /^([A-Za-z][A-Za-z]*?)(?:Id|_id|ID)$/;
/** `tid`, `mainPid`: a collection's initial and the id. */
const INITIAL_ID = /^([a-z])id$|^[a-z][a-z]*([A-Z])id$/;
const SMALL = /^\d{1,15}$/;
const WRITES = new Set(["POST", "PUT", "PATCH"]);

/** Each correlator's small ids by `noun\0number`: the latest answer that gave each. */
const named = new WeakMap<Correlator, Map<string, Producer>>();

/**
 * Notes the small ids a write (2xx) answered under a key naming their
 * collection, at the top of its JSON answer or one or two objects down.
 *
 * @example
 * ```ts
 * import { keyNamedIdProducer, noteKeyNamedIds } from "./key_named_ids.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const last = { method: "POST", status: 200, url: new URL("http://a.test/w/X/run"), hasJson: true, json: { data: { executionId: "1" } } };
 * // deno-lint-ignore no-explicit-any
 * noteKeyNamedIds(c, { last } as any);
 * if (keyNamedIdProducer(c, "/rest/executions", "1") === undefined) throw new Error();
 * if (keyNamedIdProducer(c, "/rest/pages", "1") !== undefined) throw new Error();
 * const forum = { method: "POST", status: 200, url: new URL("http://a.test/topics"), hasJson: true, json: { tid: 2, mainPid: 3 } };
 * // deno-lint-ignore no-explicit-any
 * noteKeyNamedIds(c, { last: forum } as any);
 * if (keyNamedIdProducer(c, "/api/posts", "3") === undefined) throw new Error();
 * if (keyNamedIdProducer(c, "/api/comments", "3") !== undefined) throw new Error();
 * ```
 */
export function noteKeyNamedIds(c: Correlator, step: Step): void {
  const r = step.last;
  if (!r.hasJson || !WRITES.has(r.method)) return;
  if (r.status === undefined || r.status < 200 || r.status > 299) return;
  const ids = named.get(c) ?? new Map<string, Producer>();
  named.set(c, ids);
  const visit = (path: string[], object: unknown) => {
    if (typeof object !== "object" || object === null || Array.isArray(object)) return;
    for (const [key, value] of Object.entries(object)) {
      const noun = keyNoun(key);
      const small = typeof value === "string" ? SMALL.test(value) : Number.isInteger(value);
      if (noun !== undefined && small && Number(value) >= 0) {
        const source = { kind: "json" as const, path: [...path, key] };
        ids.set(`${noun}\u0000${Number(value)}`, { step, source, secret: false });
        ids.set(`${BY_KEY}${key}\u0000${Number(value)}`, { step, source, secret: false });
      }
      if (path.length < 2) visit([...path, key], value);
    }
  };
  visit([], r.json);
}

/**
 * The answer that gave the small id `segment` under a key naming the
 * collection the path names right before it (`under` ends in
 * `/executions`), else undefined.
 */
export function keyNamedIdProducer(
  c: Correlator,
  under: string,
  segment: string,
): Producer | undefined {
  if (!SMALL.test(segment)) return undefined;
  const word = singular(snake(under.slice(under.lastIndexOf("/") + 1)));
  if (!/^[a-z]/.test(word)) return undefined;
  const ids = named.get(c);
  const n = Number(segment);
  return ids?.get(`${word}\u0000${n}`) ?? ids?.get(`${INITIAL}${word[0]}\u0000${n}`);
}

/**
 * The answer that gave the small id `value` under the very key `key` a body
 * sends it under (`tid=2` after `{"tid": 2}`), when that key names a
 * collection in full or by its initial; else undefined.
 *
 * @example
 * ```ts
 * import { noteKeyNamedIds, sameKeyIdProducer } from "./key_named_ids.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const last = { method: "POST", status: 200, url: new URL("http://a.test/topics"), hasJson: true, json: { tid: 2, postcount: 2 } };
 * // deno-lint-ignore no-explicit-any
 * noteKeyNamedIds(c, { last } as any);
 * if (sameKeyIdProducer(c, "tid", "2") === undefined) throw new Error();
 * if (sameKeyIdProducer(c, "pid", "2") !== undefined) throw new Error();
 * if (sameKeyIdProducer(c, "postcount", "2") !== undefined) throw new Error();
 * ```
 */
export function sameKeyIdProducer(
  c: Correlator,
  key: string,
  value: string,
): Producer | undefined {
  if (!SMALL.test(value) || keyNoun(key) === undefined) return undefined;
  return named.get(c)?.get(`${BY_KEY}${key}\u0000${Number(value)}`);
}

/** Marks an id noted by the very key that gave it. */
const BY_KEY = "key:";

/** Marks a collection named by its initial only (`tid` → `initial:t`), no word of its own. */
const INITIAL = "initial:";

/** The collection a key names (`execution` for `executionId`, `initial:t` for `tid`), if any. */
function keyNoun(key: string): string | undefined {
  const noun = NAMED_ID.exec(key)?.[1];
  if (noun !== undefined) return snake(noun);
  const initial = INITIAL_ID.exec(key);
  return initial ? `${INITIAL}${(initial[1] ?? initial[2]).toLowerCase()}` : undefined;
}
