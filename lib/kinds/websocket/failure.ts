/**
 * Why a WebSocket connection could not be made, in a sentence a person can
 * act on, from the error Node's `net`/`tls` (as Deno runs them) or the `ws`
 * client raised: refused, a host that does not resolve, TLS, a connection
 * cut during the handshake. Anything else keeps its own words. The host and
 * the runtime's words are values of the sentence, masked where the step
 * shows it; the rest is flowrun's words, which a short password (`refused`)
 * never masks.
 *
 * @module
 */
import { around, type Told, told } from "../../model/told.ts";

/** Sentences by Node's error code. */
const BY_CODE: Record<string, (target: string) => Told> = {
  ECONNREFUSED: (target) => told`Connection refused by ${target}.`,
  ENOTFOUND: (target) => told`Could not resolve the host of ${target}.`,
  EAI_AGAIN: (target) =>
    told`Could not resolve the host of ${target} (the name server did not answer).`,
  ECONNRESET: (target) => told`${target} reset the connection before the handshake completed.`,
  ETIMEDOUT: (target) => told`Connecting to ${target} timed out.`,
  EHOSTUNREACH: (target) => told`No route to ${target}.`,
};

/** Sentences by what the message says, when there is no code. */
const BY_TEXT: [RegExp, (target: string, text: string) => Told][] = [
  [
    /wrong version number|InvalidContentType|corrupt message/i,
    (target) =>
      told`${target} does not speak TLS on that port (use ws:// if it serves plain WebSocket).`,
  ],
  [
    /certificate|self.signed|unable to verify|UnknownIssuer|NotValidForName/i,
    (target, text) =>
      around(
        "",
        told`The certificate of ${target} was not accepted (${clause(text)}`,
        "); trust its CA with --cacert, or skip the check with --insecure.",
      ),
  ],
  [
    /socket hang up|closed before the connection was established/i,
    (target) => told`${target} closed the connection before the handshake completed.`,
  ],
];

/**
 * The sentence for a connection to `url` that failed with `error`.
 *
 * @example
 * ```ts
 * import { connectFailure } from "./failure.ts";
 * import { tell } from "../../model/told.ts";
 * const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:9"), { code: "ECONNREFUSED" });
 * const said = tell(connectFailure(refused, "ws://127.0.0.1:9/chat"));
 * if (said !== "Connection refused by 127.0.0.1:9.") throw new Error(said);
 * ```
 */
export function connectFailure(error: Error & { code?: string }, url: string): Told {
  const target = hostOf(url);
  const byCode = error.code ? BY_CODE[error.code] : undefined;
  if (byCode) return byCode(target);
  const text = error.message || String(error);
  const known = BY_TEXT.find(([pattern]) => pattern.test(text));
  // The runtime's own words may quote the URL: a value, as the host is.
  return known ? known[1](target, text) : told`${capitalised(clause(text))} (${target}).`;
}

/** `host:port` of a ws:// or wss:// URL, the port its scheme's when unwritten. */
function hostOf(url: string): string {
  try {
    const parsed = new URL(url);
    const port = parsed.port || (parsed.protocol === "wss:" ? "443" : "80");
    return `${parsed.hostname}:${port}`;
  } catch {
    return url;
  }
}

function clause(text: string): string {
  return text.replace(/[.\s]+$/, "");
}

function capitalised(text: string): string {
  return text ? text[0].toUpperCase() + text.slice(1) : "The connection failed";
}
