/**
 * How a header the first recording sent is judged by the second recording's evidence.
 *
 * @module
 */
import type { HarRecord, NameValue } from "./har_model.ts";
import { valueKey } from "./json.ts";
import { envName } from "./names.ts";
import { ownEnvName } from "./shell_env.ts";
import { freshFrom } from "./fresh_from.ts";
import { unfallbackable } from "./two_recordings_fallback.ts";
import { isClockReading } from "./two_recordings_time.ts";
import { pageMade } from "./two_recordings_nonce.ts";
import {
  decide,
  judged,
  oneValueARun,
  type TwoRecordingsCorrelator,
} from "./two_recordings_judge.ts";

/**
 * A header sent as recorded that the second session sent otherwise: fresh, or a variable; equal
 * at its own pair, or at a request with no partner while other pairs sent it equal, it stays as
 * recorded. Gives the header's template.
 *
 * @example
 * ```ts
 * import { judgedHeader } from "./two_recordings_header.ts";
 * import { newTwoRecordingsCorrelator } from "./two_recordings_correlate.ts";
 * import { alignRecords, Evidence } from "./two_recordings.ts";
 * import type { HarRecord } from "./har_model.ts";
 * const t = newTwoRecordingsCorrelator("a", new Evidence(alignRecords([], [])));
 * const r = { headers: [{ name: "x-view", value: "root" }] } as unknown as HarRecord;
 * if (judgedHeader(t, r, r.headers, "x-view", "root") !== "root") throw new Error();
 * ```
 */
export function judgedHeader(
  t: TwoRecordingsCorrelator,
  r: HarRecord,
  saved: NameValue[],
  name: string,
  template: string,
): string {
  const recorded = saved.find((h) => h.name.toLowerCase() === name)?.value;
  // A multipart boundary delimits this request's own body, drawn anew by each browser: the flow
  // writes the parts and the runner draws its own, and a body sent as recorded needs this one.
  if (recorded === undefined || (name === "content-type" && /boundary=/i.test(recorded))) {
    return template;
  }
  if (template !== t.sp.lit(recorded)) return judged(t, recorded, template);
  // Equal in both recordings at this request: a constant here, however another pair (one a slow
  // start-up shifted) sent it otherwise.
  if (t.evidence.isEqualAt(r, name, recorded)) return template;
  // A request the second recording has no partner for, sending what other pairs sent equal: no
  // evidence it differs here, kept as recorded as the summary says of such requests.
  if (!t.evidence.partner.has(r) && t.evidence.equal.has(valueKey(recorded))) return template;
  const other = t.evidence.counterpart(recorded);
  if (typeof other !== "string" || isClockReading(recorded, other)) return template;
  const fresh = pageMade(t, name, recorded, other, r) ?? freshFrom(recorded, other);
  if (!fresh && unfallbackable(t, recorded, `the "${name}" header`)) return template;
  decide(t, recorded, fresh ? "fresh" : "variable");
  if (fresh) {
    t.replaced.generated++;
    return oneValueARun(t, name, recorded, fresh);
  }
  const env = ownEnvName(envName(name.replace(/^x-/, "")));
  t.env.set(env, {
    about: `the "${name}" header differs between the two recordings`,
    fallback: recorded,
  });
  return t.sp.envRef(env, t.sp.lit(recorded));
}
