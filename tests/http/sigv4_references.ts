/**
 * A {@linkcode SigCase} signed three ways: by flowrun's `lib/http/sigv4.ts`, by the AWS SDK for
 * JavaScript's signer (`@smithy/signature-v4`, from the npm registry at test time, pinned) and
 * by the AWS SDK for Python's (`botocore.auth`, Debian's `python3-botocore`, run by Debian's
 * `/usr/bin/python3`). Each signer is given the request as its SDK would be: the query as
 * decoded pairs (the SDK encodes them), S3's key decoded (the SDK encodes it), every other
 * path as sent. The SDKs' canonical request and string to sign are read as they compute them.
 *
 * @module
 */
// deno-lint-ignore no-import-prefix -- test-only, kept out of deno.json's imports (what users get)
import { SignatureV4 } from "npm:@smithy/signature-v4@5.7.5";
// deno-lint-ignore no-import-prefix -- test-only: the SDK's own encoder of an S3 key's segments
import { extendedEncodeURIComponent } from "npm:@smithy/core@3.41.1/protocols";
// deno-lint-ignore no-import-prefix -- test-only: the SDK's own SHA-256
import { Sha256 } from "npm:@aws-crypto/sha256-js@5.2.0";
import { payloadHash, signV4 } from "../../lib/http/sigv4.ts";
import type { SigCase } from "./sigv4_cases.ts";

/** What a signer produced for one request. */
export interface Signed {
  canonicalRequest: string;
  stringToSign: string;
  authorization: string;
  amzDate: string;
  /** The `x-amz-security-token` sent, if any. */
  token?: string;
}

/** The credentials `c` signs with, in the shape flowrun's signer and the SDK's both take. */
function credentialsOf(c: SigCase) {
  return {
    accessKeyId: c.accessKeyId,
    secretAccessKey: c.secretAccessKey,
    sessionToken: c.sessionToken,
  };
}

/** flowrun's signature of `c`. */
export function flowrunSign(c: SigCase): Signed {
  const signed = signV4({
    method: c.method,
    path: c.path,
    query: c.query,
    headers: c.headers,
    payloadHash: c.unsignedPayload ? "UNSIGNED-PAYLOAD" : payloadHash(c.body),
  }, {
    credentials: credentialsOf(c),
    region: c.region,
    service: c.service,
    date: new Date(c.date),
    contentSha256: c.contentSha256,
    signSessionToken: c.signSessionToken,
  });
  const sent = new Map(signed.headers);
  return {
    canonicalRequest: signed.canonicalRequest,
    stringToSign: signed.stringToSign,
    authorization: sent.get("authorization")!,
    amzDate: sent.get("x-amz-date")!,
    token: sent.get("x-amz-security-token"),
  };
}

/** The query's pairs as the sender meant them: split at `&` and the first `=`, then decoded. */
export function queryPairs(query: string): [string, string][] {
  return query.split("&").filter((p) => p !== "").map((pair) => {
    const at = pair.indexOf("=");
    const [name, value] = at < 0 ? [pair, ""] : [pair.slice(0, at), pair.slice(at + 1)];
    return [decodeURIComponent(name), decodeURIComponent(value)];
  });
}

/** The path's segments decoded: S3's key as the SDK is given it. */
function keySegments(path: string): string[] {
  return path.split("/").map(decodeURIComponent);
}

/** Whether a header name comes more than once (the JavaScript SDK's headers are one object). */
export function repeatsHeader(c: SigCase): boolean {
  const names = c.headers.map(([name]) => name.toLowerCase());
  return new Set(names).size !== names.length;
}

/** The signer's steps this test reads (TypeScript calls them private; JavaScript does not). */
interface SignerSteps {
  createCanonicalRequest(...args: unknown[]): string;
  createStringToSign(...args: unknown[]): Promise<string>;
}

async function sha256Hex(text: string): Promise<string> {
  const hash = new Sha256();
  hash.update(new TextEncoder().encode(text));
  return [...await hash.digest()].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The AWS SDK for JavaScript's signature of `c` (a name must not repeat). */
export async function smithySign(c: SigCase): Promise<Signed> {
  const s3 = c.service === "s3";
  const signer = new SignatureV4({
    credentials: credentialsOf(c),
    region: c.region,
    service: c.service,
    sha256: Sha256,
    // S3's client encodes the key once and asks the signer to keep it as it is.
    uriEscapePath: !s3,
    applyChecksum: false,
  });
  const seen = { canonicalRequest: "", stringToSign: "" };
  const steps = signer as unknown as SignerSteps;
  const canonical = steps.createCanonicalRequest.bind(signer);
  const toSign = steps.createStringToSign.bind(signer);
  steps.createCanonicalRequest = (...args) => seen.canonicalRequest = canonical(...args);
  steps.createStringToSign = async (...args) => seen.stringToSign = await toSign(...args);
  const headers: Record<string, string> = Object.fromEntries(c.headers);
  if (c.contentSha256) {
    // As S3's client middleware adds it: the SDK's own hash of the body.
    headers["x-amz-content-sha256"] = c.unsignedPayload
      ? "UNSIGNED-PAYLOAD"
      : await sha256Hex(c.body);
  }
  const query: Record<string, string[]> = {};
  for (const [name, value] of queryPairs(c.query)) (query[name] ??= []).push(value);
  const path = s3 ? keySegments(c.path).map(extendedEncodeURIComponent).join("/") : c.path;
  const signed = await signer.sign({
    method: c.method,
    protocol: "http:",
    hostname: "api.flowrun.test",
    path,
    query,
    headers,
    body: c.body,
  }, {
    signingDate: new Date(c.date),
    unsignableHeaders: c.signSessionToken === false ? new Set(["x-amz-security-token"]) : undefined,
  });
  return {
    ...seen,
    authorization: signed.headers["authorization"],
    amzDate: signed.headers["x-amz-date"],
    token: signed.headers["x-amz-security-token"],
  };
}

/**
 * botocore's own signers, `add_auth` as the SDK calls it, with the case's date for the clock and
 * the canonical request and string to sign read as they are computed. S3's signer hashes the
 * body itself (or signs UNSIGNED-PAYLOAD when payload signing is off, as the client config sets
 * it) and keeps the key as the SDK encoded it.
 */
const BOTOCORE = `
import datetime, hashlib, json, sys, types
import botocore.auth as auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials
from botocore.utils import percent_encode

class Clock(datetime.datetime):
    now = None
    @classmethod
    def utcnow(cls):
        return cls.now

auth.datetime = types.SimpleNamespace(datetime=Clock)

class Spy:
    def canonical_request(self, request):
        self.seen_canonical = super().canonical_request(request)
        return self.seen_canonical
    def string_to_sign(self, request, canonical_request):
        self.seen_sts = super().string_to_sign(request, canonical_request)
        return self.seen_sts

class Signer(Spy, auth.SigV4Auth): pass
class S3Signer(Spy, auth.S3SigV4Auth): pass

out = []
for c in json.load(sys.stdin):
    s3 = c["service"] == "s3"
    credentials = Credentials(c["accessKeyId"], c["secretAccessKey"], c.get("sessionToken"))
    signer = (S3Signer if s3 else Signer)(credentials, c["service"], c["region"])
    body = c["body"].encode("utf-8")
    path = "/".join(percent_encode(s, safe="~") for s in c["keySegments"]) if s3 else c["path"]
    request = AWSRequest(method=c["method"], url="http://" + c["host"] + path, data=body,
                         params=[tuple(p) for p in c["params"]])
    for name, value in c["headers"]:
        request.headers[name] = value
    if s3:
        request.context["client_config"] = types.SimpleNamespace(
            s3={"payload_signing_enabled": not c.get("unsignedPayload")})
    elif c["contentSha256"]:
        request.headers["X-Amz-Content-SHA256"] = hashlib.sha256(body).hexdigest()
    Clock.now = datetime.datetime.strptime(c["date"], "%Y-%m-%dT%H:%M:%SZ")
    signer.add_auth(request)
    out.append({
        "canonicalRequest": signer.seen_canonical,
        "stringToSign": signer.seen_sts,
        "authorization": request.headers["Authorization"],
        "amzDate": request.headers["X-Amz-Date"],
        "token": request.headers.get("X-Amz-Security-Token"),
    })
json.dump(out, sys.stdout)
`;

/** Debian's botocore, beside which the test's cases are signed. */
export const BOTOCORE_FILE = "/usr/lib/python3/dist-packages/botocore/auth.py";

/** The AWS SDK for Python's signatures of `cases` (one process for all of them). */
export async function botocoreSign(cases: SigCase[]): Promise<Signed[]> {
  const input = cases.map((c) => ({
    ...c,
    host: c.headers.find(([name]) => name.toLowerCase() === "host")![1],
    params: queryPairs(c.query),
    keySegments: keySegments(c.path),
  }));
  const child = new Deno.Command("/usr/bin/python3", {
    args: ["-c", BOTOCORE],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(JSON.stringify(input)));
  await writer.close();
  const out = await child.output();
  if (!out.success) throw new Error(`botocore failed: ${new TextDecoder().decode(out.stderr)}`);
  return (JSON.parse(new TextDecoder().decode(out.stdout)) as Signed[]).map((s) => ({
    ...s,
    token: s.token ?? undefined,
  }));
}
