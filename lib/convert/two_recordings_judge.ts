/**
 * How the second recording's evidence judges what the single-recording rules wrote: the
 * decision kept for each value, and what a user holds (equal in every recording by nature).
 *
 * @module
 */
import { isSecretName, nameWords } from "../secrets/mod.ts";
import type { Correlator } from "./correlate/mod.ts";
import { valueKey } from "./json.ts";
import { snake } from "./names.ts";
import type { Evidence } from "./two_recordings.ts";

/** How each value the two recordings decided was written. */
export type Decision = "constant" | "capture" | "fresh" | "variable" | "credential";

/** Word endings of what a user holds; `bypass` and `compass` are kept out by the secret rule. */
const HELD_ENDING = /(?:PASS|PASSWORD|PASSWD|PWD|PASSPHRASE|PASSCODE|SECRET|CREDENTIAL|APIKEY)S?$/;
/** Word beginnings no everyday word has: `passwordconfirm`, `pwdhash`, `otpcode`. */
const HELD_START = /^(?:PASSWORD|PASSWD|PASSPHRASE|PASSCODE|PWD|PRIVATE|CREDENTIAL|OTP)/;
/** Short credentials that count only as a whole word: `pin` is no part of `spin`. */
const HELD_WORD = new Set(["PIN", "PINCODE", "OTP", "TOTP", "HOTP", "PRIVATE"]);
/** Headers that carry what a user holds, whole. */
const HELD_HEADER = new Set(["authorization", "proxy-authorization", "cookie"]);

/**
 * Whether a name is that of what a user holds (a password, a PIN, a one-time code, an API key,
 * a client secret, an `Authorization` header): equal in every recording by nature, so equality
 * says nothing about its being secret; it stays a variable. The rule reads whole words (split as
 * {@linkcode nameWords} splits, a trailing number dropped: `password2`), because matching letters
 * anywhere took `footprint` and `hotpot` for one-time codes, `spin` for a PIN and `passage` for a
 * password, and asked what the user typed there as a secret.
 *
 * @example
 * ```ts
 * import { isHeldByUser } from "./two_recordings_judge.ts";
 * for (const held of ["pin", "otp_code", "passcode", "apiKey", "X-Api-Key", "new_password2"]) {
 *   if (!isHeldByUser(held)) throw new Error(held);
 * }
 * for (const data of ["session_spin", "footprint", "passage_title", "compass", "author_token"]) {
 *   if (isHeldByUser(data)) throw new Error(data);
 * }
 * ```
 */
export function isHeldByUser(name: string): boolean {
  if (HELD_HEADER.has(name.trim().toLowerCase())) return true;
  const ws = nameWords(name).map((w) => w.replace(/\d+$/, ""));
  return ws.some((w, i) =>
    HELD_WORD.has(w) || HELD_START.test(w) || (/^KEYS?$/.test(w) && ws[i - 1] === "API") ||
    (HELD_ENDING.test(w) && isSecretName(w))
  );
}

/**
 * A correlation whose rules the second recording's evidence overrules.
 *
 * @example
 * ```ts
 * import { newTwoRecordingsCorrelator } from "./two_recordings_correlate.ts";
 * import type { TwoRecordingsCorrelator } from "./two_recordings_judge.ts";
 * import { alignRecords, Evidence } from "./two_recordings.ts";
 * const t: TwoRecordingsCorrelator = newTwoRecordingsCorrelator("a", new Evidence(alignRecords([], [])));
 * if (t.unconfirmed !== 0) throw new Error();
 * ```
 */
export interface TwoRecordingsCorrelator extends Correlator {
  readonly evidence: Evidence;
  /** Each value the evidence decided, by {@linkcode valueKey}. */
  readonly decisions: Map<string, Decision>;
  /** Differing values captured without a partner response to confirm them. */
  unconfirmed: number;
}

/**
 * Notes how the evidence decided `value`.
 *
 * @example
 * ```ts
 * import { decide } from "./two_recordings_judge.ts";
 * import { newTwoRecordingsCorrelator } from "./two_recordings_correlate.ts";
 * import { alignRecords, Evidence } from "./two_recordings.ts";
 * const t = newTwoRecordingsCorrelator("a", new Evidence(alignRecords([], [])));
 * decide(t, "x", "constant");
 * if (t.decisions.size !== 1) throw new Error();
 * ```
 */
export function decide(t: TwoRecordingsCorrelator, value: unknown, decision: Decision): void {
  t.decisions.set(valueKey(value), decision);
}

/**
 * Records how the single-recording rules wrote a value the evidence speaks about; gives the
 * template back.
 *
 * @example
 * ```ts
 * import { judged } from "./two_recordings_judge.ts";
 * import { newTwoRecordingsCorrelator } from "./two_recordings_correlate.ts";
 * import { alignRecords, Evidence } from "./two_recordings.ts";
 * const t = newTwoRecordingsCorrelator("a", new Evidence(alignRecords([], [])));
 * if (judged(t, "x", "x") !== "x") throw new Error();
 * ```
 */
export function judged(t: TwoRecordingsCorrelator, value: unknown, template: string): string {
  const k = valueKey(value);
  if (t.decisions.has(k) || template === t.sp.lit(String(value))) return template;
  // What the template reads, whatever modifier reads it (`${raw:steps.…}`, `${origin:vars.…}`).
  const read = template.replace(/\$\{(?:raw|origin):/g, "${");
  // Only the instance's address (a browser's Origin or Referer on the base URL), which differs
  // between two instances by their ports: the run's BASE_URL, no value of the session.
  if (onlyBaseUrls(t, read)) return template;
  if (t.evidence.isDynamic(value)) {
    decide(
      t,
      value,
      /\$\{steps\./.test(read)
        ? "capture"
        : /\$\{(RANDOM|RUN_ID|vars\.)/.test(read)
        ? "fresh"
        : "variable",
    );
  } else if (t.evidence.isConstant(value)) {
    // A value the flow makes anew (`${RUN_ID}`, `${RANDOM…}`) is fresh however equal it was;
    // only one read from the environment is what a user holds.
    if (/\$\{(RANDOM|RUN_ID)/.test(template)) decide(t, value, "fresh");
    else if (/\$\{(ENV\.|[A-Z])/.test(template)) decide(t, value, "credential");
  }
  return template;
}

/**
 * One value a run, sent at every place the recording sent `value`: a `${RANDOM.…}` written at
 * each place is fresh at each use, so an id the page made (Node-RED's tab id, and each node's
 * `z` that names it; n8n's `browser-id` header, which its login is bound to) named nothing.
 * Gives the var's reference, the same one for the same value.
 *
 * @example
 * ```ts
 * import { oneValueARun } from "./two_recordings_judge.ts";
 * import { newTwoRecordingsCorrelator } from "./two_recordings_correlate.ts";
 * import { alignRecords, Evidence } from "./two_recordings.ts";
 * const t = newTwoRecordingsCorrelator("a", new Evidence(alignRecords([], [])));
 * const ref = oneValueARun(t, "tab-id", "4f1c9a", "${RANDOM.HEX_6}");
 * if (ref !== oneValueARun(t, "z", "4f1c9a", "${RANDOM.HEX_6}") || t.vars.length !== 1) throw new Error();
 * ```
 */
export function oneValueARun(
  t: TwoRecordingsCorrelator,
  key: string,
  value: string,
  fresh: string,
): string {
  const known = t.generated.get(value);
  if (known) return known;
  const name = t.varNames.take(snake(key) || "value");
  t.vars.push([name, fresh]);
  const ref = t.sp.varRef(name);
  t.generated.set(value, ref);
  return ref;
}

/** Whether every reference of `read` is a base URL var (`${vars.base_url}`, `…_2`). */
function onlyBaseUrls(t: TwoRecordingsCorrelator, read: string): boolean {
  const bases = [...t.origins.values()];
  if (!bases.some((b) => read.includes(b))) return false;
  return !bases.reduce((rest, b) => rest.split(b).join(""), read).includes("${");
}
