/**
 * Ids the client made: a UUID sent that no earlier response held becomes a
 * generated value, `${RANDOM.UUID}` where it is sent once, else a var made
 * once per run and sent at every place the recording sent it. Also which
 * path segments are ids, for step names.
 *
 * @module
 */
import type { HarRecord } from "../har_model.ts";
import { safeDecode, valueKey } from "../json.ts";
import type { Step } from "../model.ts";
import { snake } from "../names.ts";
import { isUuid, looksLikeId } from "../values.ts";
import { noteEchoedUuids, sentHeaderText } from "./made_ids.ts";
import type { Correlator } from "./state.ts";
import { withTokens } from "./tokens.ts";

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * A fresh value shaped like the recorded one: a UUID, or random hex of the
 * same length.
 *
 * @example
 * ```ts
 * import { freshValue } from "./ids.ts";
 * if (freshValue("9f3a") !== "${RANDOM.HEX_4}") throw new Error();
 * if (freshValue("k-1") !== "${RANDOM.UUID}") throw new Error();
 * ```
 */
export function freshValue(recorded: string): string {
  if (isUuid(recorded)) return "${RANDOM.UUID}";
  if (/^[0-9a-f]{1,4096}$/i.test(recorded)) return `\${RANDOM.HEX_${recorded.length}}`;
  return "${RANDOM.UUID}";
}

/**
 * Counts how often each UUID is sent (URL, headers, body): one sent twice
 * must keep one value.
 *
 * @example
 * ```ts
 * import { countUuids } from "./ids.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * const id = "6f1c2b7e-8d4a-4e3f-9a1b-c5d6e7f80912";
 * const r = { url: new URL(`https://a.test/x/${id}?again=${id}`), headers: [] };
 * // deno-lint-ignore no-explicit-any
 * countUuids(c, [r as any]);
 * if (c.uuidCounts.get(id) !== 2) throw new Error();
 * ```
 */
export function countUuids(c: Correlator, records: HarRecord[]): void {
  for (const r of records) {
    const url = `${safeDecode(r.url.pathname)} ${safeDecode(r.url.search)}`;
    const sent = `${url} ${sentHeaderText(r)} ${r.bodyText ?? ""}`;
    for (const m of sent.matchAll(UUID)) {
      c.uuidCounts.set(m[0], (c.uuidCounts.get(m[0]) ?? 0) + 1);
    }
  }
  noteEchoedUuids(c, records);
}

/**
 * A UUID the client made (the default rule): `${RANDOM.UUID}` where it is
 * sent once, else a var generated once per run.
 *
 * @example
 * ```ts
 * import { freshUuid } from "./ids.ts";
 * import { emptyCorrelator } from "./state.ts";
 * const c = emptyCorrelator("a", true);
 * if (freshUuid(c, "id", "6f1c2b7e-8d4a-4e3f-9a1b-c5d6e7f80912") !== "${RANDOM.UUID}") throw new Error();
 * ```
 */
export function freshUuid(c: Correlator, key: string, value: string): string {
  c.replaced.generated++;
  const known = c.generated.get(value);
  if (known) return known;
  if ((c.uuidCounts.get(value) ?? 0) < 2) return "${RANDOM.UUID}";
  const name = c.varNames.take(snake(key) || "uuid");
  c.vars.push([name, "${RANDOM.UUID}"]);
  const ref = c.sp.varRef(name);
  c.generated.set(value, ref);
  return ref;
}

/**
 * `text` with the client-made UUIDs inside it made fresh (a multipart body
 * that does not parse, say), and tokens replaced.
 *
 * @example
 * ```ts
 * import { freshUuidsIn } from "./ids.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * // deno-lint-ignore no-explicit-any
 * const out = freshUuidsIn(c, "id=6f1c2b7e-8d4a-4e3f-9a1b-c5d6e7f80912;", { uses: new Set() } as any);
 * if (out !== "id=${RANDOM.UUID};") throw new Error(out);
 * ```
 */
export function freshUuidsIn(c: Correlator, text: string, user: Step): string {
  let out = "";
  let at = 0;
  for (const m of text.matchAll(UUID)) {
    if (c.responseSeen.has(valueKey(m[0])) || c.rules.producerFor(m[0])) continue;
    out += withTokens(c, text.slice(at, m.index), user) + c.rules.freshUuid("uuid", m[0]);
    at = m.index! + m[0].length;
  }
  return out + withTokens(c, text.slice(at), user);
}

/**
 * Whether a path segment is an id (a produced or generated value, a number,
 * a UUID, an id-shaped word with a digit), left out of step names.
 *
 * @example
 * ```ts
 * import { isIdSegment } from "./ids.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * if (!isIdSegment(c, "42") || isIdSegment(c, "orders")) throw new Error();
 * ```
 */
export function isIdSegment(c: Correlator, decoded: string): boolean {
  return c.rules.producerFor(decoded) !== undefined || c.generated.has(decoded) ||
    /^\d+$/.test(decoded) || isUuid(decoded) || looksLikeId("id", decoded) &&
      /\d/.test(decoded);
}
