/**
 * Small row ids an RPC endpoint's read listed and a later call of the same
 * endpoint sends back in a form field: Tiny Tiny RSS's `POST /backend.php`
 * `method=view` answers `{"headlines": {"content": [{"id": 3, "title": …}]}}`
 * and `method=markSelected&ids=3` stars that row. A number that small is no
 * evidence alone (a count, a page, a mode), so it is taken only where the
 * field's name is the rows' key (`id`, or `ids` for several) and the call
 * goes to the path whose answer listed the row; the capture then picks the
 * row by a field that tells it apart (`captures.ts` `stablePath`), since a
 * fresh instance may number its rows in another order. The latest answer
 * that listed the number is its source. Larger and opaque ids are producers
 * everywhere (`producers.ts`); a create's small ids are `created_ids.ts`.
 *
 * @module
 */
import { safeDecode } from "../json.ts";
import type { Producer, Step } from "../model.ts";
import type { Correlator } from "./state.ts";

/** Where a listed row's id is kept among the members: apart from a create's. */
function rowKey(path: string, id: string): string {
  return `listed-row\u0000${path}\u0000${id}`;
}

/**
 * The lists in `body`, at the top or one or two objects down, with their paths.
 *
 * @example
 * ```ts
 * import { listsOf } from "./listed_rows.ts";
 * const [[path, rows]] = listsOf({ result: [{ id: 1 }] });
 * if (path.join() !== "result" || rows.length !== 1) throw new Error();
 * ```
 */
export function listsOf(body: unknown): [(string | number)[], unknown[]][] {
  const found: [(string | number)[], unknown[]][] = [];
  const visit = (path: string[], value: unknown) => {
    if (Array.isArray(value)) return void found.push([path, value]);
    if (typeof value !== "object" || value === null || path.length > 2) return;
    for (const [k, v] of Object.entries(value)) visit([...path, k], v);
  };
  visit([], body);
  return found;
}

/**
 * Notes the rows a `POST`'s 2xx JSON answer listed with a whole-number `id`, by the path the
 * call went to; a later answer of the same path listing the number again is its source.
 *
 * @example
 * ```ts
 * import { listedRowProducer, noteListedRows } from "./listed_rows.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const url = new URL("http://rss.test/backend.php");
 * const json = { content: [{ id: 3, title: "Tide" }, { id: 2, title: "Pilot" }] };
 * const view = { last: { method: "POST", status: 200, url, hasJson: true, json } };
 * // deno-lint-ignore no-explicit-any
 * noteListedRows(c, view as any);
 * const star = { last: { url } };
 * // deno-lint-ignore no-explicit-any
 * if (listedRowProducer(c, "ids", "3", star as any) === undefined) throw new Error();
 * // deno-lint-ignore no-explicit-any
 * if (listedRowProducer(c, "feed_id", "3", star as any) !== undefined) throw new Error();
 * ```
 */
export function noteListedRows(c: Correlator, step: Step): void {
  const r = step.last;
  if (!r.hasJson || r.method !== "POST") return;
  if (r.status === undefined || r.status < 200 || r.status > 299) return;
  const path = safeDecode(r.url.pathname);
  for (const [at, rows] of listsOf(r.json)) {
    rows.forEach((row, i) => {
      if (typeof row !== "object" || row === null || Array.isArray(row)) return;
      const id = (row as Record<string, unknown>).id;
      if (!Number.isInteger(id) || (id as number) < 0) return;
      c.members.set(rowKey(path, String(id)), {
        producer: { step, source: { kind: "json", path: [...at, i, "id"] }, secret: false },
        under: path,
      });
    });
  }
}

/**
 * The answer that listed the row `value` a form field `key` sends, when the field is named for
 * the rows' key (`id`, `ids`) and the call goes to the path that answered it; else undefined.
 *
 * @example
 * ```ts
 * import { listedRowProducer } from "./listed_rows.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const star = { last: { url: new URL("http://rss.test/backend.php") } };
 * // deno-lint-ignore no-explicit-any
 * if (listedRowProducer(emptyCorrelator("a", true), "ids", "3", star as any) !== undefined) {
 *   throw new Error("no answer listed row 3");
 * }
 * ```
 */
export function listedRowProducer(
  c: Correlator,
  key: string,
  value: string,
  step: Step,
): Producer | undefined {
  if (!/^(id|ids)$/.test(key) || !/^\d{1,15}$/.test(value)) return undefined;
  const found = c.members.get(rowKey(safeDecode(step.last.url.pathname), String(Number(value))));
  return found === undefined || found.producer.step === step ? undefined : found.producer;
}
