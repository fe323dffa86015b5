/**
 * Ids the browser made, found inside a longer text: a header's value, a text
 * or form value, a framed (protobuf-as-text) body. Actual Budget's client
 * names a new budget by a UUID it made and sends it only in
 * `X-Actual-File-Id` and inside protobuf bodies: kept as recorded, a second
 * run names the first run's file and is refused. Evidence, not names: a
 * UUID v4 no earlier response produced, that the recording sends again or a
 * later answer echoes, is the run's own wherever it is sent (`ids.ts` makes
 * the value); one sent once and never echoed may be anything the server
 * knew (a tenant), and stays.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import { valueKey } from "../json.ts";
import { cleanHeaders } from "../noise_headers.ts";
import type { Correlator } from "./state.ts";

/** A UUID v4 (RFC 4122 variant): what `crypto.randomUUID()` makes. */
const RANDOM_UUID = /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/i;

/** A whole value that is a UUID v4. */
const WHOLE_RANDOM_UUID = new RegExp(`^${RANDOM_UUID.source}$`, "i");

/** Any UUID, as `ids.ts` counts them. */
const ANY_UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** Headers whose values other rules own: the session's cookies and credentials. */
const OWNED_HEADER = /^(?:cookie|authorization|proxy-authorization)$/;

/**
 * The text of the headers `r` sends that may carry an id the browser made,
 * for counting (`ids.ts`).
 *
 * @example
 * ```ts
 * import { sentHeaderText } from "./made_ids.ts";
 * const r = { headers: [{ name: "X-File-Id", value: "a" }, { name: "Cookie", value: "b" }] };
 * // deno-lint-ignore no-explicit-any
 * if (sentHeaderText(r as any) !== "a") throw new Error();
 * ```
 */
export function sentHeaderText(r: HarRecord): string {
  return cleanHeaders(r.headers).filter((h) => !OWNED_HEADER.test(h.name)).map((h) => h.value)
    .join(" ");
}

/**
 * Notes the UUIDs a response echoes after a request sent them (a listing
 * that names the file the client made), evidence the id is the instance's
 * record of the run's own.
 *
 * @example
 * ```ts
 * import { noteEchoedUuids } from "./made_ids.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const id = "6f1c2b7e-8d4a-4e3f-9a1b-c5d6e7f80912";
 * const sent = { url: new URL("https://a.test/"), headers: [{ name: "x-id", value: id }], responseText: "" };
 * const listed = { url: new URL("https://a.test/list"), headers: [], responseText: `[{"id":"${id}"}]` };
 * // deno-lint-ignore no-explicit-any
 * noteEchoedUuids(c, [sent, listed] as any);
 * if (!c.uuidEchoed.has(id)) throw new Error();
 * ```
 */
export function noteEchoedUuids(c: Correlator, records: HarRecord[]): void {
  const sent = new Set<string>();
  for (const r of records) {
    for (const m of (r.responseText ?? "").matchAll(ANY_UUID)) {
      if (sent.has(m[0])) c.uuidEchoed.add(m[0]);
    }
    const text = `${r.url.pathname} ${r.url.search} ${sentHeaderText(r)} ${r.bodyText ?? ""}`;
    for (const m of text.matchAll(ANY_UUID)) sent.add(m[0]);
  }
}

/**
 * Whether `value`, found in text a request sends, is an id the browser made
 * with the evidence for it: one made the run's own before, or a UUID v4 no
 * earlier answer produced that is sent again or echoed later.
 *
 * @example
 * ```ts
 * import { isMadeId } from "./made_ids.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * const id = "6f1c2b7e-8d4a-4e3f-9a1b-c5d6e7f80912";
 * if (isMadeId(c, id)) throw new Error("sent once, never echoed");
 * c.uuidCounts.set(id, 2);
 * if (!isMadeId(c, id)) throw new Error();
 * ```
 */
export function isMadeId(c: Correlator, value: string): boolean {
  if (c.generated.has(value)) return true;
  if (!WHOLE_RANDOM_UUID.test(value)) return false;
  if (c.responseSeen.has(valueKey(value)) || c.rules.producerFor(value)) return false;
  return (c.uuidCounts.get(value) ?? 0) >= 2 || c.uuidEchoed.has(value);
}

/**
 * The ids the browser made found in `text`, each with the template sent
 * instead (made only when used, so that a var is declared only then), the
 * var named for `key` when the id is sent more than once.
 *
 * @example
 * ```ts
 * import { madeIdsIn } from "./made_ids.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * const id = "6f1c2b7e-8d4a-4e3f-9a1b-c5d6e7f80912";
 * c.uuidCounts.set(id, 2);
 * const [[value, template]] = madeIdsIn(c, `file:${id}`);
 * if (value !== id || template() !== "${vars.uuid}") throw new Error(template());
 * ```
 */
export function madeIdsIn(c: Correlator, text: string, key = "uuid"): [string, () => string][] {
  const found = new Set<string>();
  // Any UUID: one made a var before (a v1 in a path sent twice) is that var here too.
  for (const m of text.matchAll(ANY_UUID)) if (isMadeId(c, m[0])) found.add(m[0]);
  return [...found].map((value) => [value, () => c.rules.freshUuid(key, value)]);
}
