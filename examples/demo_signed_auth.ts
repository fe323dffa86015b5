/**
 * The demo API's routes behind HTTP Digest and AWS SigV4, as a server
 * checks them:
 *
 * - `/digest/md5`, `/digest/sha-256` and `/digest/any` (any method) answer
 *   401 with a Digest challenge (RFC 7616, `qop="auth"`; `any` offers
 *   SHA-256 then MD5 in one header) until a request carries a right answer
 *   for user {@linkcode DIGEST_USER}, password {@linkcode DIGEST_PASSWORD};
 *   then 200 with what was authenticated and the body received. A nonce
 *   lives five minutes, then it is answered with `stale=true`.
 * - `/aws/*` (any method) checks an AWS Signature Version 4 header the way
 *   AWS does: the access key {@linkcode AWS_ACCESS_KEY_ID} (secret
 *   {@linkcode AWS_SECRET_ACCESS_KEY}), or the temporary key
 *   {@linkcode AWS_TEMP_ACCESS_KEY_ID} that needs `x-amz-security-token:`
 *   {@linkcode AWS_SESSION_TOKEN} signed too; any region and service; a
 *   date within 15 minutes; `x-amz-content-sha256` equal to the body's
 *   hash. 403 with AWS's wording when the signature differs.
 *
 * The expected Digest response is computed here with `node:crypto` from the
 * RFC's formulas; the SigV4 canonical request with flowrun's own
 * `lib/http/sigv4.ts`, which signs as the AWS SDKs' own signers do
 * (tests/http/sigv4_test.ts).
 *
 * @module
 */
import { createHash, createHmac } from "node:crypto";
import { parseChallenges } from "../lib/http/auth_challenge.ts";
import {
  canonicalHeaders,
  canonicalPath,
  canonicalQuery,
  payloadHash,
  signingKey,
} from "../lib/http/sigv4.ts";

/** The Digest routes' user. */
export const DIGEST_USER = "Mufasa";
/** The Digest routes' password. */
export const DIGEST_PASSWORD = "Circle of Life";
/** The SigV4 route's long-term access key id (AWS's documentation example). */
export const AWS_ACCESS_KEY_ID = "AKIDEXAMPLE";
/** Its secret key. */
export const AWS_SECRET_ACCESS_KEY = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY";
/** A temporary access key id: it needs the session token. */
export const AWS_TEMP_ACCESS_KEY_ID = "ASIADEMOTEMPORARY";
/** The temporary key's session token. */
export const AWS_SESSION_TOKEN = "demo-session-token/FwoGZXIvYXdzEXAMPLE";

const REALM = "flowrun-demo@example.org";
const NONCE_LIFETIME_MS = 5 * 60_000;
const ALGORITHMS: Record<string, string[]> = {
  "md5": ["MD5"],
  "sha-256": ["SHA-256"],
  "any": ["SHA-256", "MD5"],
};
const HASH: Record<string, string> = { "MD5": "md5", "SHA-256": "sha256" };
/** Signs this server's nonces, so any nonce it issued is known without remembering it. */
const NONCE_KEY = crypto.getRandomValues(new Uint8Array(32));

function nonceFor(time: number): string {
  const mac = createHmac("sha256", NONCE_KEY).update(String(time)).digest("base64url");
  return `${time}.${mac}`;
}

/** Whether this server issued the nonce, and whether it is past its lifetime. */
function nonceState(nonce: string): "fresh" | "stale" | "forged" {
  const time = Number(nonce.split(".")[0]);
  if (!Number.isSafeInteger(time) || nonceFor(time) !== nonce) return "forged";
  return Date.now() - time > NONCE_LIFETIME_MS ? "stale" : "fresh";
}

function challenge(algorithms: string[], stale: boolean, message: string): Response {
  const nonce = nonceFor(Date.now());
  const header = algorithms.map((algorithm) =>
    `Digest realm="${REALM}", qop="auth", algorithm=${algorithm}, nonce="${nonce}", ` +
    `opaque="flowrun-demo"${stale ? ", stale=true" : ""}`
  ).join(", ");
  return Response.json({ error: "unauthorized", message }, {
    status: 401,
    headers: { "www-authenticate": header },
  });
}

/** Why a Digest answer is wrong, or undefined when it is right. */
function digestProblem(
  params: Map<string, string>,
  request: Request,
  url: URL,
  algorithms: string[],
): string | undefined {
  const algorithm = params.get("algorithm") ?? "MD5";
  if (!algorithms.includes(algorithm)) return `algorithm ${algorithm} was not offered`;
  if (params.get("username") !== DIGEST_USER) return "unknown user";
  if (params.get("realm") !== REALM) return "wrong realm";
  if (params.get("uri") !== `${url.pathname}${url.search}`) return "uri is not the request target";
  if (
    params.get("qop") !== "auth" || !params.get("cnonce") ||
    !/^[0-9a-f]{8}$/.test(params.get("nc") ?? "")
  ) {
    return "qop=auth needs cnonce and nc";
  }
  const h = (text: string) => createHash(HASH[algorithm]).update(text).digest("hex");
  const ha1 = h(`${DIGEST_USER}:${REALM}:${DIGEST_PASSWORD}`);
  const ha2 = h(`${request.method}:${params.get("uri")}`);
  const want = h(
    `${ha1}:${params.get("nonce")}:${params.get("nc")}:${params.get("cnonce")}:auth:${ha2}`,
  );
  return params.get("response") === want ? undefined : "wrong response (password)";
}

/**
 * `/digest/:algorithm`: a Digest-protected echo.
 *
 * @example
 * ```ts
 * import { digestRoute } from "./demo_signed_auth.ts";
 * const response = await digestRoute(new Request("http://x.test/digest/md5"), "md5");
 * if (response.status !== 401 || !response.headers.get("www-authenticate")?.startsWith("Digest ")) throw new Error();
 * ```
 */
export async function digestRoute(request: Request, which: string): Promise<Response> {
  const algorithms = ALGORITHMS[which];
  if (!algorithms) {
    return Response.json({ error: "not_found", message: `No Digest route ${which}.` }, {
      status: 404,
    });
  }
  const url = new URL(request.url);
  const header = request.headers.get("authorization");
  if (!header?.toLowerCase().startsWith("digest ")) {
    return challenge(algorithms, false, "Send a Digest answer to this challenge.");
  }
  let params: Map<string, string>;
  try {
    params = parseChallenges(header)[0].params;
  } catch {
    return challenge(algorithms, false, "The Authorization header does not parse.");
  }
  const nonce = nonceState(params.get("nonce") ?? "");
  if (nonce === "forged") return challenge(algorithms, false, "Unknown nonce.");
  const problem = digestProblem(params, request, url, algorithms);
  if (problem) return challenge(algorithms, false, `Digest answer refused: ${problem}.`);
  if (nonce === "stale") return challenge(algorithms, true, "The nonce is stale.");
  const body = await request.text();
  return Response.json({
    authenticated: DIGEST_USER,
    algorithm: params.get("algorithm") ?? "MD5",
    method: request.method,
    nc: params.get("nc"),
    body,
  });
}

const AUTH_HEADER =
  /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/;

function denied(status: number, message: string): Response {
  return Response.json({ error: "access_denied", message }, { status });
}

/**
 * `/aws/*`: a SigV4-checking echo.
 *
 * @example
 * ```ts
 * import { sigv4Route } from "./demo_signed_auth.ts";
 * const response = await sigv4Route(new Request("http://x.test/aws/a"));
 * if (response.status !== 403) throw new Error();
 * ```
 */
export async function sigv4Route(request: Request): Promise<Response> {
  const parts = AUTH_HEADER.exec(request.headers.get("authorization") ?? "");
  if (!parts) return denied(403, "Missing or malformed AWS4-HMAC-SHA256 Authorization header.");
  const [, keyId, day, region, service, signedList, signature] = parts;
  const secret = keyId === AWS_ACCESS_KEY_ID || keyId === AWS_TEMP_ACCESS_KEY_ID
    ? AWS_SECRET_ACCESS_KEY
    : undefined;
  if (!secret) return denied(403, "The security token included in the request is invalid.");
  const signed = signedList.split(";");
  const token = request.headers.get("x-amz-security-token");
  if (
    keyId === AWS_TEMP_ACCESS_KEY_ID &&
    (token !== AWS_SESSION_TOKEN || !signed.includes("x-amz-security-token"))
  ) {
    return denied(403, "The security token included in the request is invalid.");
  }
  const amzDate = request.headers.get("x-amz-date") ?? "";
  const when = Date.parse(
    amzDate.replace(/^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/, "$1-$2-$3T$4:$5:$6Z"),
  );
  if (!signed.includes("host") || !signed.includes("x-amz-date") || !amzDate.startsWith(day)) {
    return denied(403, "SignedHeaders must include host and x-amz-date of the credential's day.");
  }
  if (!(Math.abs(Date.now() - when) < 15 * 60_000)) return denied(403, "Signature expired.");
  const body = new Uint8Array(await request.arrayBuffer());
  const bodyHash = payloadHash(body);
  const claimed = request.headers.get("x-amz-content-sha256");
  // S3 alone takes a body whose hash it is not told.
  const unsigned = claimed === "UNSIGNED-PAYLOAD" && service === "s3";
  if (claimed !== null && claimed !== bodyHash && !unsigned) {
    return denied(
      400,
      "The provided 'x-amz-content-sha256' header does not match what was computed.",
    );
  }
  const url = new URL(request.url);
  const headers = signed.map((name) => [name, request.headers.get(name) ?? ""] as [string, string]);
  const canonical = [
    request.method,
    canonicalPath(url.pathname, { normalize: service !== "s3", encodeTwice: service !== "s3" }),
    canonicalQuery(url.search.slice(1)),
    canonicalHeaders(headers).text,
    signedList,
    unsigned ? claimed : bodyHash,
  ].join("\n");
  const toSign = [
    "AWS4-HMAC-SHA256",
    amzDate,
    `${day}/${region}/${service}/aws4_request`,
    payloadHash(canonical),
  ]
    .join("\n");
  const want = createHmac("sha256", signingKey(secret, day, region, service)).update(toSign).digest(
    "hex",
  );
  if (want !== signature) {
    return denied(
      403,
      "The request signature we calculated does not match the signature you provided. " +
        "Check your AWS Secret Access Key and signing method.",
    );
  }
  return Response.json({
    authenticated: keyId,
    region,
    service,
    signed_headers: signed,
    body_sha256: bodyHash,
    body_bytes: body.length,
  });
}
