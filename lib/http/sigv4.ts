/**
 * AWS Signature Version 4 for a request's headers: the canonical request,
 * the string to sign, the signing key and the `Authorization` value, as
 * AWS's documentation and SDKs compute them.
 * Every service but S3 encodes the path twice (the path as sent is encoded
 * once more) and normalizes it (no `.`/`..` segments, no empty ones); S3
 * signs the path as it is, encoded once. Hashes and HMACs come from
 * `node:crypto`, synchronously, so a request is signed the moment before it
 * is sent.
 *
 * @module
 */
import { createHash, createHmac } from "node:crypto";

/**
 * AWS credentials. The secret and the session token are secrets in every output.
 *
 * @example
 * ```ts
 * import type { AwsCredentials } from "./sigv4.ts";
 * const c: AwsCredentials = { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "s" };
 * if (c.sessionToken !== undefined) throw new Error();
 * ```
 */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  /** Temporary credentials' token, sent as `x-amz-security-token`. */
  sessionToken?: string;
}

/**
 * The parts of a request that are signed, as they go on the wire.
 *
 * @example
 * ```ts
 * import type { SigV4Request } from "./sigv4.ts";
 * const r: SigV4Request = { method: "GET", path: "/", query: "", headers: [["host", "a.test"]], payloadHash: "UNSIGNED-PAYLOAD" };
 * if (r.path !== "/") throw new Error();
 * ```
 */
export interface SigV4Request {
  method: string;
  /** The path as sent (percent-encoded as it is in the request line). */
  path: string;
  /** The query as sent, without its `?`. */
  query: string;
  /** Every header to sign, `host` among them, names in any case. */
  headers: readonly (readonly [string, string])[];
  /** The payload's SHA-256 in hex ({@linkcode payloadHash}), or `UNSIGNED-PAYLOAD`. */
  payloadHash: string;
}

/**
 * Where and when a request is signed, and how.
 *
 * @example
 * ```ts
 * import type { SigV4Params } from "./sigv4.ts";
 * const p: SigV4Params = { credentials: { accessKeyId: "a", secretAccessKey: "s" }, region: "us-east-1", service: "s3", date: new Date() };
 * if (p.service !== "s3") throw new Error();
 * ```
 */
export interface SigV4Params {
  credentials: AwsCredentials;
  region: string;
  service: string;
  date: Date;
  /** Send and sign `x-amz-content-sha256` (S3 requires it; default: yes). */
  contentSha256?: boolean;
  /** Sign `x-amz-security-token` (default: yes; when no, it is sent unsigned). */
  signSessionToken?: boolean;
  /** Normalize the path (default: every service but `s3`). */
  normalizePath?: boolean;
  /** Encode the sent path once more (default: every service but `s3`). */
  encodeTwice?: boolean;
}

/**
 * A signature and what it was computed from.
 *
 * @example
 * ```ts
 * import type { SigV4Signature } from "./sigv4.ts";
 * const s: SigV4Signature = { headers: [], canonicalRequest: "", stringToSign: "", signature: "", authorization: "" };
 * if (s.headers.length !== 0) throw new Error();
 * ```
 */
export interface SigV4Signature {
  /** The headers to add to the request: `x-amz-date`, the token, the payload hash, `authorization`. */
  headers: [string, string][];
  canonicalRequest: string;
  stringToSign: string;
  /** The signature, hex. */
  signature: string;
  /** The `Authorization` value. */
  authorization: string;
}

const ALGORITHM = "AWS4-HMAC-SHA256";

/**
 * The SHA-256 of a payload in hex, as `x-amz-content-sha256` carries it.
 *
 * @example
 * ```ts
 * import { payloadHash } from "./sigv4.ts";
 * if (payloadHash("") !== "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855") throw new Error();
 * ```
 */
export function payloadHash(payload: string | Uint8Array): string {
  const hash = createHash("sha256");
  if (typeof payload === "string") hash.update(payload, "utf8");
  else hash.update(payload);
  return hash.digest("hex");
}

/**
 * Signs a request: the headers to add and the signature's workings.
 *
 * @example A plain GET, AWS's documentation example
 * ```ts
 * import { signV4 } from "./sigv4.ts";
 * const signed = signV4(
 *   { method: "GET", path: "/", query: "", headers: [["Host", "example.amazonaws.com"]], payloadHash: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
 *   {
 *     credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" },
 *     region: "us-east-1", service: "service", date: new Date("2015-08-30T12:36:00Z"), contentSha256: false,
 *   },
 * );
 * if (signed.signature !== "5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31") throw new Error();
 * ```
 */
export function signV4(request: SigV4Request, params: SigV4Params): SigV4Signature {
  const { credentials, region, service } = params;
  const amzDate = params.date.toISOString().replace(/[-:]/g, "").replace(/\.\d+/, "");
  const day = amzDate.slice(0, 8);
  const added: [string, string][] = [["x-amz-date", amzDate]];
  const token = credentials.sessionToken;
  const signToken = token !== undefined && params.signSessionToken !== false;
  if (signToken) added.push(["x-amz-security-token", token]);
  if (params.contentSha256 !== false) added.push(["x-amz-content-sha256", request.payloadHash]);
  const replaced = new Set(added.map(([name]) => name));
  const headers = [
    ...request.headers.filter(([name]) => !replaced.has(name.toLowerCase())),
    ...added,
  ];
  const s3 = service === "s3";
  const { text, signed } = canonicalHeaders(headers);
  const canonicalRequest = [
    request.method,
    canonicalPath(request.path, {
      normalize: params.normalizePath ?? !s3,
      encodeTwice: params.encodeTwice ?? !s3,
    }),
    canonicalQuery(request.query),
    text,
    signed,
    request.payloadHash,
  ].join("\n");
  const scope = `${day}/${region}/${service}/aws4_request`;
  const stringToSign = [ALGORITHM, amzDate, scope, payloadHash(canonicalRequest)].join("\n");
  const key = signingKey(credentials.secretAccessKey, day, region, service);
  const signature = createHmac("sha256", key).update(stringToSign, "utf8").digest("hex");
  const authorization = `${ALGORITHM} Credential=${credentials.accessKeyId}/${scope}, ` +
    `SignedHeaders=${signed}, Signature=${signature}`;
  if (token !== undefined && !signToken) added.push(["x-amz-security-token", token]);
  added.push(["authorization", authorization]);
  return { headers: added, canonicalRequest, stringToSign, signature, authorization };
}

/**
 * The key a day's signatures in one region and service are made with.
 *
 * @example The example key of AWS's documentation
 * ```ts
 * import { signingKey } from "./sigv4.ts";
 * const key = signingKey("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "20150830", "us-east-1", "iam");
 * const hex = [...key].map((b) => b.toString(16).padStart(2, "0")).join("");
 * if (hex !== "c4afb1cc5771d871763a393e44b703571b55cc28424d1a5e86da6ed3c154a4b9") throw new Error(hex);
 * ```
 */
export function signingKey(secret: string, day: string, region: string, service: string) {
  let key: Uint8Array = new TextEncoder().encode(`AWS4${secret}`);
  for (const part of [day, region, service, "aws4_request"]) {
    key = createHmac("sha256", key).update(part, "utf8").digest();
  }
  return key;
}

/**
 * The canonical URI: normalized and encoded once more for most services,
 * decoded and encoded once for S3.
 *
 * @example
 * ```ts
 * import { canonicalPath } from "./sigv4.ts";
 * const twice = { normalize: true, encodeTwice: true };
 * if (canonicalPath("//a/./b/../c%20d", twice) !== "/a/c%2520d") throw new Error();
 * if (canonicalPath("//a/c%20d", { normalize: false, encodeTwice: false }) !== "//a/c%20d") throw new Error();
 * ```
 */
export function canonicalPath(
  path: string,
  options: { normalize: boolean; encodeTwice: boolean },
): string {
  let segments = (path || "/").split("/");
  if (options.normalize) segments = normalized(segments);
  const encoded = segments.map((s) => uriEncode(options.encodeTwice ? s : percentDecode(s)));
  const joined = encoded.join("/");
  return joined.startsWith("/") ? joined : `/${joined}`;
}

/** The segments without `.`, `..` and empty ones, keeping the leading and a trailing slash. */
function normalized(segments: string[]): string[] {
  const out: string[] = [];
  const last = segments.at(-1);
  for (const segment of segments) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") out.pop();
    else out.push(segment);
  }
  const trailing = (last === "" || last === "." || last === "..") && out.length > 0;
  return ["", ...out, ...(trailing ? [""] : [])];
}

/**
 * The canonical query: every pair decoded then encoded AWS's way (only
 * `A-Za-z0-9-._~` left as they are), sorted by name then value.
 *
 * @example
 * ```ts
 * import { canonicalQuery } from "./sigv4.ts";
 * if (canonicalQuery("b=2&a=x%20y&c&a=1") !== "a=1&a=x%20y&b=2&c=") throw new Error();
 * ```
 */
export function canonicalQuery(query: string): string {
  const pairs = query.split("&").filter((p) => p !== "").map((pair) => {
    const at = pair.indexOf("=");
    const [name, value] = at < 0 ? [pair, ""] : [pair.slice(0, at), pair.slice(at + 1)];
    return [uriEncode(percentDecode(name)), uriEncode(percentDecode(value))];
  });
  pairs.sort(([an, av], [bn, bv]) => an < bn ? -1 : an > bn ? 1 : av < bv ? -1 : av > bv ? 1 : 0);
  return pairs.map(([name, value]) => `${name}=${value}`).join("&");
}

/**
 * The canonical headers block (names lower-cased and sorted, values trimmed
 * with inner runs of space folded, a repeated name's values joined by
 * commas) and the signed-headers list.
 *
 * @example
 * ```ts
 * import { canonicalHeaders } from "./sigv4.ts";
 * const { text, signed } = canonicalHeaders([["My-H", " a   b "], ["host", "x"], ["my-h", "c"]]);
 * if (text !== "host:x\nmy-h:a b,c\n" || signed !== "host;my-h") throw new Error(text);
 * ```
 */
export function canonicalHeaders(
  headers: readonly (readonly [string, string])[],
): { text: string; signed: string } {
  const byName = new Map<string, string[]>();
  for (const [name, value] of headers) {
    const lower = name.toLowerCase();
    const folded = value.trim().replace(/\s+/g, " ");
    byName.set(lower, [...byName.get(lower) ?? [], folded]);
  }
  const names = [...byName.keys()].sort();
  return {
    text: names.map((name) => `${name}:${byName.get(name)!.join(",")}\n`).join(""),
    signed: names.join(";"),
  };
}

/** RFC 3986 encoding of everything but the unreserved characters, UTF-8, upper-case hex. */
function uriEncode(text: string): string {
  return encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

/** Percent-escapes decoded; a `%` that starts no valid UTF-8 escape stays as it is. */
function percentDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text.replace(/(%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decodeURIComponent(run);
      } catch {
        return run;
      }
    });
  }
}
