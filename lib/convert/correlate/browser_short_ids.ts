/**
 * Short random ids the page made for what it creates. jsreport's studio
 * names each new entity by a `shortid` it draws itself (`"22vxy3E98"`),
 * sends it in the create and refers to the entity by it from then on (a
 * template's `data: {shortid}`); the server keeps it beside an `_id` of its
 * own. Sent as recorded, a second run on the same instance is refused
 * ("Entity with shortid … already exists"). UUIDs the page made have their
 * own rules (`ids.ts`, `made_ids.ts`); this is the shorter kind, found by
 * evidence, not by the key's name:
 * - a write (POST, PUT, PATCH) answered 2xx, no login, sent the value in a
 *   top-level field whose key names an id (`shortid`, `clientId`, `key`);
 * - the value looks drawn, not typed: 6 to 40 letters and digits (`_`, `-`),
 *   with a digit, a capital and a small letter;
 * - no earlier request or answer held it: nothing handed it to the page;
 * - the answer echoes it under the same key beside an id of the server's
 *   own (`_id`) that differs from it: the server kept the page's id as the
 *   item's, and made its own too. An echo with no other id may be the
 *   server's own key, which a page may have been told of another way.
 *
 * Such an id becomes a var drawn once a run, random hex of the recorded
 * length (`${RANDOM.HEX_9}`), sent wherever the recording had it.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import { safeDecode } from "../json.ts";
import { singular, snake } from "../names.ts";
import { ownName, sentFields } from "./client_names.ts";
import type { Correlator } from "./state.ts";

const WRITES = new Set(["POST", "PUT", "PATCH"]);
/** Keys that name an id: `shortid`, `short_id`, `clientId`, `key`. */
const ID_NAME = /^(key|uuid|guid)$|id$/i;
/** Keys of an item's own id in an answer: `id`, `_id`, `uuid`, `pk`. */
const SERVER_ID = /^(_?id|ID|Id|uuid|guid|pk)$/;
/** Drawn, not typed: letters and digits, a digit, a capital and a small letter. */
const DRAWN = /^(?=.*\d)(?=.*[A-Z])(?=.*[a-z])[A-Za-z0-9_-]{6,40}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Makes each short id the page made for an item it creates the run's own
 * (see the module).
 *
 * @example
 * ```ts
 * import { ownBrowserShortIds } from "./browser_short_ids.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const post = {
 *   method: "POST", url: new URL("http://a.test/odata/data"), headers: [], status: 201,
 *   bodyText: '{"name":"Orders","shortid":"22vxy3E98"}',
 *   json: { name: "Orders", shortid: "22vxy3E98", _id: "hki8OGWi53bqXstg" },
 * };
 * const c = newCorrelator("a");
 * // deno-lint-ignore no-explicit-any
 * ownBrowserShortIds(c, [post] as any);
 * if (c.generated.get("22vxy3E98") !== "${vars.data_shortid}") throw new Error(JSON.stringify(c.vars));
 * ```
 */
export function ownBrowserShortIds(c: Correlator, ordered: readonly HarRecord[]): void {
  ordered.forEach((r, i) => {
    if (!WRITES.has(r.method) || !answered(r) || c.loginRecords.has(r)) return;
    for (const [key, value] of sentFields(r)) {
      if (!ID_NAME.test(key) || !DRAWN.test(value) || UUID.test(value)) continue;
      if (c.generated.has(value) || !keptBesideOwnId(r, key, value)) continue;
      if (ordered.slice(0, i).some((e) => holds(e, value))) continue;
      ownName(c, value, `${noun(r)}_${snake(key)}`, () => `\${RANDOM.HEX_${value.length}}`);
    }
  });
}

/** Whether `r` was answered 2xx. */
function answered(r: HarRecord): boolean {
  return r.status !== undefined && r.status >= 200 && r.status < 300;
}

/**
 * Whether `r`'s JSON answer (the object, or one it holds) echoes `value`
 * under `key` beside an id of the server's that is another value.
 */
function keptBesideOwnId(r: HarRecord, key: string, value: string): boolean {
  const json = r.json;
  if (typeof json !== "object" || json === null || Array.isArray(json)) return false;
  const objects = [json, ...Object.values(json)].filter((o): o is Record<string, unknown> =>
    typeof o === "object" && o !== null && !Array.isArray(o)
  );
  return objects.some((o) =>
    o[key] === value &&
    Object.entries(o).some(([k, v]) =>
      k !== key && SERVER_ID.test(k) && (typeof v === "string" || typeof v === "number") &&
      v !== "" && String(v) !== value
    )
  );
}

/** Whether a request or answer of `e` holds `text` anywhere. */
function holds(e: HarRecord, text: string): boolean {
  return safeDecode(e.url.href).includes(text) || (e.bodyText?.includes(text) ?? false) ||
    (e.responseText?.includes(text) ?? false);
}

/** The item's noun: the last segment of the write's path with no digit (`data`, `template`). */
function noun(r: HarRecord): string {
  const words = r.url.pathname.split("/").map(safeDecode).filter((s) => s !== "" && !/\d/.test(s));
  return singular(snake(words.at(-1) ?? "")) || "item";
}
