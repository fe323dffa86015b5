/**
 * The runtime's network errors (hyper's and rustls's wording, wrapped in
 * "error sending request for url …: client error (…)") as a plain reason a
 * person can act on. The wording of each class is fixed by tests against a
 * raw TCP server; a new class is one more row of {@linkcode TEXT_REASONS}.
 *
 * @module
 */
import { thousands } from "../_util/thousands.ts";
import { tell, type Told, told } from "../model/told.ts";

/** Reasons known from the error's text alone, first match wins. */
const TEXT_REASONS: [RegExp, string | ((text: string) => Told)][] = [
  [/connection refused/i, "connection refused"],
  [
    /dns error|failed to lookup|name or service not known|no address/i,
    "could not resolve the host",
  ],
  [
    /message head is too large/i,
    "the response headers are too large to read (more than 100 header lines, " +
    "or a header block of several hundred kilobytes)",
  ],
  [/invalid HTTP status-code/i, "the server's reply has no valid status code in its first line"],
  [
    /invalid HTTP version/i,
    "the server did not reply with HTTP (its first line is not an HTTP status line)",
  ],
  [/invalid HTTP header|invalid header/i, "the server sent a malformed header line"],
  [
    /invalid content-length/i,
    "the server sent an invalid or conflicting content-length header",
  ],
  [/connection reset/i, "connection reset by the server"],
  [
    /received corrupt message|InvalidContentType|wrong version number/i,
    "the server does not speak TLS on that port (use http:// if it serves plain HTTP)",
  ],
  [/certificate|tls|ssl/i, (text) => tlsReason(runtimeDetail(text))],
];

/**
 * Why a request failed, in words: from the error's text, and when the
 * response head had arrived (`response`), from what it announced for the
 * body.
 *
 * @example
 * ```ts
 * import { networkReason } from "./network_reason.ts";
 * const refused = new TypeError("error sending request: client error (Connect): Connection refused");
 * if (networkReason(refused) !== "connection refused") throw new Error();
 * const cut = new TypeError("error reading a body from connection");
 * const head = new Response(null, { headers: { "content-length": "10" } });
 * if (networkReason(cut, head) !== "the server closed the connection before the whole response arrived") throw new Error();
 * ```
 */
export function networkReason(error: unknown, response?: Response): string {
  return tell(networkTold(error, response));
}

/**
 * {@linkcode networkReason} as flowrun's words and the values they quote
 * (the runtime's own text, a header's value), for a message that masks the
 * values where it is shown (see `told.ts`).
 *
 * @example
 * ```ts
 * import { networkTold } from "./network_reason.ts";
 * const refused = new TypeError("error sending request: client error (Connect): Connection refused");
 * if (networkTold(refused).values.length !== 0) throw new Error();
 * const odd = new TypeError("error sending request for url (http://h/?q=x): client error (Connect): odd");
 * if (networkTold(odd).values.join() !== "odd") throw new Error();
 * ```
 */
export function networkTold(error: unknown, response?: Response): Told {
  const text = error instanceof Error
    ? `${error.message} ${(error.cause as Error | undefined)?.message ?? ""}`.trim()
    : String(error);
  const known = TEXT_REASONS.find(([pattern]) => pattern.test(text));
  if (known) return typeof known[1] === "string" ? words(known[1]) : known[1](text);
  return (response && bodyReason(text, response)) ?? endReason(text, response);
}

/** A reason that quotes nothing: all flowrun's words. */
function words(text: string): Told {
  return { words: [text], values: [] };
}

/** A failure while the body streamed: a corrupt compressed body or a broken chunked one. */
function bodyReason(text: string, response: Response): Told | undefined {
  // Errors raised while the body streams, other than a broken connection, come from the decoder.
  const encoding = response.headers.get("content-encoding");
  if (encoding && !/error reading a body|body from connection/i.test(text)) {
    return told`the body could not be decompressed: its content-encoding is "${encoding}", but the data is corrupt or cut short`;
  }
  if (
    !response.headers.has("content-length") &&
    /chunked/i.test(response.headers.get("transfer-encoding") ?? "chunked")
  ) {
    return words("the server sent a malformed or cut-off chunked body");
  }
  return undefined;
}

/** A connection that ended early, or else the runtime's own words. */
function endReason(text: string, response: Response | undefined): Told {
  if (/connection closed before message completed/i.test(text) && !response) {
    return words("the server closed the connection without sending a response");
  }
  if (
    response ||
    /reading a body|body from connection|connection closed|incomplete message|unexpected eof/i
      .test(text)
  ) {
    return words("the server closed the connection before the whole response arrived");
  }
  // The runtime's words may quote the URL: a value, masked as one.
  return told`${runtimeDetail(text)}`;
}

/** rustls's certificate verdicts, in words, with what to do about each. */
const CERTIFICATE_PROBLEMS: [RegExp, string][] = [
  [/CaUsedAsEndEntity|SelfSigned/i, "the server's certificate is self-signed"],
  [/UnknownIssuer/i, "the server's certificate is not signed by a CA this machine trusts"],
  [/NotValidForName|hostname/i, "the server's certificate is for another host name"],
  [/Expired/i, "the server's certificate has expired"],
  [/NotValidYet/i, "the server's certificate is not valid yet (check the clock)"],
  [/Revoked/i, "the server's certificate has been revoked"],
];

/** A TLS failure: the certificate verdict in words when there is one, else rustls's. */
function tlsReason(detail: string): Told {
  const known = CERTIFICATE_PROBLEMS.find(([pattern]) => pattern.test(detail));
  if (!known) return told`TLS error: ${detail}`;
  const code = /(\w+)\)*\s*$/.exec(detail)?.[1] ?? detail;
  return {
    words: [
      `TLS error: ${known[1]} (`,
      "); trust its CA with --cacert FILE or ca_cert, or skip the check with --insecure",
    ],
    values: [code],
  };
}

/** The runtime's own reason, without the request it wraps it in. */
function runtimeDetail(text: string): string {
  const detail = text.replace(/^fetch failed\s*/, "").replace(/^.*client error \([^)]*\):\s*/, "")
    .replace(/\.$/, "");
  // The runtime quotes what it refused whole: a URL of 9 MB made every report hold it four
  // times, and a JUnit text node past libxml2's 10 MB limit.
  return detail.length <= MAX_DETAIL
    ? detail
    : `${detail.slice(0, MAX_DETAIL)}… (${thousands(detail.length)} characters)`;
}

/** The most of the runtime's own words a request error quotes. */
const MAX_DETAIL = 300;
