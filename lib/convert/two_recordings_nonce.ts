/**
 * A random value the page made, told apart from a token the user holds, when two recordings of
 * one journey sent it under a secret-looking name (`X-Request-Token`, `state`, `nonce`,
 * `csrf_nonce`). A name cannot tell them apart; the evidence can. The page made it when no answer
 * held it (the caller has seen that), it differs between the recordings, both are random of one
 * shape and length (hex, a UUID, base64 or base64url), and the server took either: the request
 * succeeded in both. A token the user holds is equal in both recordings, or was typed into a
 * text input of the recorded pages, or is named as what a user holds (a password, an API key).
 *
 * @module
 */
import type { HarRecord } from "./har_model.ts";
import { isHeldByUser } from "./held_names.ts";
import type { TwoRecordingsCorrelator } from "./two_recordings_judge.ts";
import { isUuid } from "./values.ts";

/**
 * How to make a value of the shape both recordings sent (`a`, then `b`), when both read as
 * random: `${RANDOM.UUID}`, `${RANDOM.HEX_n}` for hex of one length (16 digits or more), and for
 * base64 or base64url of one length and padding (mixed case and a digit in each), hex of the same
 * length with the padding kept, since hex digits are base64 digits; else `undefined`.
 *
 * @example
 * ```ts
 * import { randomOfShape } from "./two_recordings_nonce.ts";
 * if (randomOfShape("q8Zl1m0WcT9xYb2Kp4Rs7A==", "Hk3vN8pQ2rT6wY0aZc5eBg==") !== "${RANDOM.HEX_22}==") throw new Error();
 * if (randomOfShape("3fa1c9e07b5d4e2a", "c07e2b9d1f4a6c8e") !== "${RANDOM.HEX_16}") throw new Error();
 * if (randomOfShape("Morning standup", "Evening review") !== undefined) throw new Error();
 * if (randomOfShape("draft-17", "draft-19") !== undefined) throw new Error();
 * ```
 */
export function randomOfShape(a: string, b: string): string | undefined {
  if (a.length !== b.length) return undefined;
  if (isUuid(a) && isUuid(b)) return "${RANDOM.UUID}";
  if (/^[0-9a-f]{16,}$/i.test(a) && /^[0-9a-f]{16,}$/i.test(b)) return `\${RANDOM.HEX_${a.length}}`;
  const pad = /=*$/.exec(a)![0];
  if (!b.endsWith(pad) || !base64Random(a, pad.length) || !base64Random(b, pad.length)) {
    return undefined;
  }
  return `\${RANDOM.HEX_${a.length - pad.length}}${pad}`;
}

/** Base64 or base64url of 16 digits or more, lower and upper case and a digit among them. */
function base64Random(value: string, pad: number): boolean {
  const digits = value.slice(0, value.length - pad);
  if (digits.length < 16 || !/^[A-Za-z0-9+/_-]+$/.test(digits)) return false;
  // Base64's `+/` and base64url's `-_` never meet in one value.
  if (/[+/]/.test(digits) && /[_-]/.test(digits)) return false;
  return /[a-z]/.test(digits) && /[A-Z]/.test(digits) && /\d/.test(digits);
}

/**
 * The template of a value the page made (see the module), sent in record `r` under `key` as
 * `value` where the second recording sent `other`; `undefined` when the evidence does not say so.
 *
 * @example
 * ```ts
 * import { pageMade } from "./two_recordings_nonce.ts";
 * import { newTwoRecordingsCorrelator } from "./two_recordings_correlate.ts";
 * import { alignRecords, Evidence } from "./two_recordings.ts";
 * import type { HarRecord } from "./har_model.ts";
 * const a = { status: 201 } as HarRecord;
 * const evidence = new Evidence(alignRecords([], []));
 * evidence.partner.set(a, { status: 200 } as HarRecord);
 * const t = newTwoRecordingsCorrelator("a", evidence);
 * const [x, y] = ["3fa1c9e07b5d4e2a9c81f6d0b3e7a5c2", "c07e2b9d1f4a6c8e0b3d5f7a9c1e2b4d"];
 * if (pageMade(t, "x-request-token", x, y, a) !== "${RANDOM.HEX_32}") throw new Error();
 * if (pageMade(t, "api_key", x, y, a) !== undefined) throw new Error();
 * t.textFields.add("invite_token");
 * if (pageMade(t, "invite_token", x, y, a) !== undefined) throw new Error();
 * ```
 */
export function pageMade(
  t: TwoRecordingsCorrelator,
  key: string,
  value: string,
  other: string,
  r: HarRecord,
): string | undefined {
  if (isHeldByUser(key) || /^(code|code_verifier)$/.test(key)) return undefined;
  if (t.textFields.has(key) || t.passwordFields.has(key) || t.typed.has(value)) return undefined;
  const partner = t.evidence.partner.get(r);
  if (!succeeded(r) || !partner || !succeeded(partner)) return undefined;
  return randomOfShape(value, other);
}

/** Answered 2xx or 3xx: the server took what the request sent. */
function succeeded(r: HarRecord): boolean {
  return r.status !== undefined && r.status >= 200 && r.status < 400;
}
