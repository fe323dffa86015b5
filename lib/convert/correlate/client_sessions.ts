/**
 * Session ids the client made: Jupyter's page opens its kernel's socket with
 * `?session_id=<32 hex digits>` and sends the same value in every message's
 * `header.session`; a page may send `sessionId: <uuid>` with its analytics.
 * A session is issued by someone, and when no answer of the recording held
 * the value, the page issued it: nobody types a session id, so it is no
 * credential to ask for. By the value's evidence too: it must be a random
 * (version 4) UUID, with dashes or without, as a page's generator makes it.
 * It is made fresh once per run and sent at every place the recording sent
 * it (the server may tie them together).
 *
 * @module
 */
import { valueKey } from "../json.ts";
import { snake } from "../names.ts";
import type { Correlator } from "./state.ts";

/** A random UUID (version 4, RFC 4122 variant), with or without its dashes. */
const RANDOM_UUID =
  /^(?:[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|[0-9a-f]{12}4[0-9a-f]{3}[89ab][0-9a-f]{15})$/i;

/**
 * The template of a client-made session id sent under `key` (a var made once
 * per run), or `undefined` when `key` names no session, an answer held the
 * value, or the value is not a random UUID.
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
export function clientSessionId(c: Correlator, key: string, value: string): string | undefined {
  if (!/session/i.test(key) || !RANDOM_UUID.test(value)) return undefined;
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
