/**
 * Small row ids a listed row's own markup hands to a form field. A server-side table's read
 * answers each row with the HTML of its buttons (OCS Inventory's DataTables XHR:
 * `{"ID": "3", "NAME": "WARRANTY", "ACTIONS": "<a onclick='confirme(\"\",\"3\",\"admin_info\",
 * \"SUP_PROF\",…)'>"}`), and the click posts the surrounding form with `SUP_PROF=3`. A number
 * that small is no evidence on its own (a count, a page, a mode), and the field's name says
 * nothing of rows; the evidence is the row: a quoted literal in one of its members names the
 * field and, quoted beside it, the row's own `id`. Such a number, sent by a write under that
 * field, is captured from the latest answer that listed the row so marked; the capture then
 * picks the row by a member that tells it apart (`captures.ts` `stablePath`), never by one
 * drawn from the number itself, so a second run deletes its own row, not the first run's.
 *
 * @module
 */

import { safeDecode } from "../json.ts";
import type { Producer, Step } from "../model.ts";
import type { Correlator } from "./state.ts";
import { listsOf } from "./listed_rows.ts";

const ROW = /^\d{1,15}$/;
/** A quoted literal of a script call or attribute: `"SUP_PROF"`, `\"3\"`, `'check3'`. */
const QUOTED = /\\?["']([\w[\]-]{1,64})\\?["']/g;

const rowKey = (id: string, field: string) => `marked-row\u0000${Number(id)}\u0000${field}`;

/** The fields a member's markup names beside the quoted number `id`. */
function markedFields(text: string, id: string): string[] {
  const quoted = [...text.matchAll(QUOTED)].map((m) => m[1]);
  if (!quoted.includes(id)) return [];
  return quoted.filter((q) => q !== id && /^[A-Za-z_]/.test(q));
}

/**
 * Notes the rows a 2xx JSON answer listed whose markup hands their small `id` to a field (see
 * the module).
 *
 * @example
 * ```ts
 * import { markedRowProducer, noteMarkedRows } from "./marked_rows.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const json = { data: [{ ID: "3", ACTIONS: `<a onclick='drop("3","SUP_PROF")'>x</a>` }] };
 * const url = new URL("http://a.test/ajax.php");
 * const list = { last: { method: "POST", status: 200, url, hasJson: true, json } };
 * // deno-lint-ignore no-explicit-any
 * noteMarkedRows(c, list as any);
 * const save = { first: { method: "POST" } };
 * // deno-lint-ignore no-explicit-any
 * if (markedRowProducer(c, "SUP_PROF", "3", save as any) === undefined) throw new Error();
 * // deno-lint-ignore no-explicit-any
 * if (markedRowProducer(c, "MODIF", "3", save as any) !== undefined) throw new Error();
 * ```
 */
export function noteMarkedRows(c: Correlator, step: Step): void {
  const r = step.last;
  if (!r.hasJson || r.status === undefined || r.status < 200 || r.status > 299) return;
  for (const [at, rows] of listsOf(r.json)) {
    rows.forEach((row, i) => {
      if (typeof row !== "object" || row === null || Array.isArray(row)) return;
      const members = row as Record<string, unknown>;
      const idKey = Object.keys(members).find((k) => k.toLowerCase() === "id");
      const id = idKey === undefined ? undefined : String(members[idKey]);
      if (id === undefined || !ROW.test(id)) return;
      for (const text of Object.values(members)) {
        if (typeof text !== "string" || text.length > 2_000) continue;
        for (const field of markedFields(text, id)) {
          c.members.set(rowKey(id, field), {
            producer: { step, source: { kind: "json", path: [...at, i, idKey!] }, secret: false },
            under: safeDecode(r.url.pathname),
          });
        }
      }
    });
  }
}

/**
 * The answer whose listed row's markup handed `value` to the field `key`, when a write sends
 * it there; else undefined.
 *
 * @example
 * ```ts
 * import { markedRowProducer } from "./marked_rows.ts";
 * import { emptyCorrelator } from "./state.ts";
 * // deno-lint-ignore no-explicit-any
 * if (markedRowProducer(emptyCorrelator("a", true), "SUP_PROF", "3", { first: { method: "POST" } } as any)) {
 *   throw new Error("no answer listed row 3");
 * }
 * ```
 */
export function markedRowProducer(
  c: Correlator,
  key: string,
  value: string,
  step: Step,
): Producer | undefined {
  if (!ROW.test(value) || step.first.method === "GET") return undefined;
  const found = c.members.get(rowKey(value, key));
  return found === undefined || found.producer.step === step ? undefined : found.producer;
}
