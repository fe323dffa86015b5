/**
 * Session ids the client made: Jupyter's page opens its kernel's socket with
 * `?session_id=<32 hex digits>` and sends the same value in every message's
 * `header.session`; a page may send `sessionId: <uuid>` with its analytics.
 * A session is issued by someone, and when no answer of the recording held
 * the value, the page issued it: nobody types a session id, so it is no
 * credential to ask for. By the value's evidence too: it must be a random
 * (version 4) UUID, with dashes or without, as a page's generator makes it,
 * or a time-based one (version 1, 6 or 7) whose time is within a day of the
 * request that sent it (DbGate's `x-api-session-id`, a version 1 per page load).
 * It is made fresh once per run and sent at every place the recording sent
 * it (the server may tie them together).
 *
 * @module
 */
import { valueKey } from "../json.ts";
import { snake } from "../names.ts";
import type { Correlator } from "./state.ts";

/** A time-based UUID (version 1, 6 or 7, RFC 9562 variant), dashed. */
const TIME_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[167][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** How far from its request a time-based UUID's time may be, to be the page's own: a day. */
const MADE_NEAR_MS = 24 * 3600 * 1000;

/** 100 ns ticks from the Gregorian calendar's start (1582-10-15) to the Unix epoch. */
const GREGORIAN_TICKS = 122192928000000000n;

/** When the time-based UUID `value` was made (ms since the epoch), else `undefined`. */
function madeAt(value: string): number | undefined {
  if (!TIME_UUID.test(value)) return undefined;
  const h = value.replaceAll("-", "");
  if (h[12] === "7") return parseInt(h.slice(0, 12), 16);
  // Versions 1 and 6 hold 60 bits of 100 ns ticks: v1 low-first, v6 high-first.
  const ticks = h[12] === "1"
    ? BigInt(`0x${h.slice(13, 16)}${h.slice(8, 12)}${h.slice(0, 8)}`)
    : BigInt(`0x${h.slice(0, 12)}${h.slice(13, 16)}`);
  return Number((ticks - GREGORIAN_TICKS) / 10000n);
}

/**
 * Whether `value` is shaped as a made session id: a random UUID, or a
 * time-based one made within a day of `sentAt` (the page made it then; one
 * made long before is an id someone may have kept).
 */
function madeByPage(value: string, sentAt: number | undefined): boolean {
  if (RANDOM_UUID.test(value)) return true;
  const made = madeAt(value);
  return made !== undefined && sentAt !== undefined && Math.abs(made - sentAt) <= MADE_NEAR_MS;
}

/** A random UUID (version 4, RFC 4122 variant), with or without its dashes. */
const RANDOM_UUID =
  /^(?:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|[0-9a-f]{12}4[0-9a-f]{3}[89ab][0-9a-f]{15})$/i;

/**
 * The template of a client-made session id sent under `key` (a var made once
 * per run), or `undefined` when `key` names no session, an answer held the
 * value, or the value is neither a random UUID nor a time-based one made
 * within a day of `sentAt` (when the request was sent, ms since the epoch).
 *
 * @example
 * ```ts
 * import { clientSessionId } from "./client_sessions.ts";
 * import { newCorrelator } from "./pipeline.ts";
 * const c = newCorrelator("a");
 * const ref = clientSessionId(c, "session_id", "b71e82bdf53a40d58b3dc6ed065f4041");
 * if (ref !== "${vars.session_id}" || c.vars[0][1] !== "${RANDOM.HEX_32}") throw new Error(ref);
 * if (clientSessionId(c, "session", "b71e82bdf53a40d58b3dc6ed065f4041") !== ref) throw new Error();
 * if (clientSessionId(c, "api_key", "6f1c2b7e-8d4a-4e3f-9a1b-c5d6e7f80912") !== undefined) throw new Error();
 * ```
 */
export function clientSessionId(
  c: Correlator,
  key: string,
  value: string,
  sentAt?: number,
): string | undefined {
  if (!/session/i.test(key) || !madeByPage(value, sentAt)) return undefined;
  if (c.responseSeen.has(valueKey(value)) || c.rules.producerFor(value)) return undefined;
  c.replaced.generated++;
  const known = c.generated.get(value);
  if (known) return known;
  const name = c.varNames.take(snake(key) || "session_id");
  c.vars.push([name, value.includes("-") ? "${RANDOM.UUID}" : "${RANDOM.HEX_32}"]);
  const ref = c.sp.varRef(name);
  c.generated.set(value, ref);
  return ref;
}
