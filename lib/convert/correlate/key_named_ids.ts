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
 * @module
 */
import type { Producer, Step } from "../model.ts";
import { singular, snake } from "../names.ts";
import type { Correlator } from "./state.ts";

/** `executionId`, `execution_id`: the collection's word and the id. */
const NAMED_ID = /^([A-Za-z][A-Za-z]*?)(?:Id|_id|ID)$/;
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
      const noun = NAMED_ID.exec(key)?.[1];
      const small = typeof value === "string" ? SMALL.test(value) : Number.isInteger(value);
      if (noun !== undefined && small && Number(value) >= 0) {
        const source = { kind: "json" as const, path: [...path, key] };
        ids.set(`${snake(noun)}\u0000${Number(value)}`, { step, source, secret: false });
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
  return word === "" ? undefined : named.get(c)?.get(`${word}\u0000${Number(segment)}`);
}
