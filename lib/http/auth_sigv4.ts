/**
 * `aws_sigv4`: AWS Signature Version 4 as a kind of the `auth:` block. Each
 * request is signed the moment before it is sent, after the content type and
 * cookies (a `traceparent` `--trace` adds comes after, unsigned, as AWS's
 * SDKs leave their trace header), over its `host`, every header the
 * step sends and the SHA-256 of the exact body bytes (a file's, a
 * multipart body as it will be sent), which goes along as
 * `x-amz-content-sha256`. Credentials: the block's keys, else a profile it
 * names, else the standard AWS environment variables, else the shared
 * credentials file's `AWS_PROFILE` or `default` profile
 * (`io/aws_credentials.ts`). The secret key and the session token are
 * secrets in every output.
 *
 * @module
 */
import type { AwsSigV4Auth } from "../model/auth.ts";
import type { Template } from "../model/template.ts";
import { AwsCredentialsError, findAwsCredentials } from "../io/aws_credentials.ts";
import { readEnv } from "../io/env.ts";
import { type AuthFactory, type AuthServices, hasHeader } from "./auth.ts";
import { AuthError } from "./auth_error.ts";
import { around, ownWords } from "../model/told.ts";
import type { ResolvedRequest } from "./request.ts";
import type { AwsCredentials } from "./sigv4.ts";
import { onDemand } from "../_util/on_demand.ts";

/** Signing needs `node:crypto`, which starts Deno's Node layer: loaded by the first request signed. */
const sigv4Module = onDemand("AWS SigV4", () => import("./sigv4.ts"));

/**
 * Headers left unsigned: the one being written, those the runtime or a
 * proxy sets or may change on the way (the AWS SDKs leave out the same).
 */
const UNSIGNED = new Set([
  "authorization",
  "connection",
  "content-length",
  "expect",
  "transfer-encoding",
  "user-agent",
  "x-amzn-trace-id",
]);

/**
 * The `aws_sigv4` kind: signs every request.
 *
 * @example
 * ```ts
 * import { sigv4 } from "./auth_sigv4.ts";
 * import { parseTemplate } from "../expr/template.ts";
 * const env = new Map([["AWS_ACCESS_KEY_ID", "AKIDEXAMPLE"], ["AWS_SECRET_ACCESS_KEY", "secret"]]);
 * const secrets: string[] = [];
 * const auth = { kind: "aws_sigv4" as const, region: parseTemplate("us-east-1"), service: parseTemplate("execute-api") };
 * const handler = sigv4(auth, (t) => t.source, { secret: (s) => void secrets.push(s), env: (n) => env.get(n), timeoutMs: 1 });
 * const request = { method: "POST", url: "http://x.test/a", headers: [["content-type", "text/plain"]] as [string, string][], body: "hi" };
 * await handler.apply(request);
 * const sent = new Map(request.headers);
 * if (!sent.get("authorization")?.includes("SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date,")) throw new Error();
 * if (secrets[0] !== "secret") throw new Error();
 * ```
 */
export const sigv4: AuthFactory = (auth, render, services) => {
  const a = auth as AwsSigV4Auth;
  let credentials: AwsCredentials | undefined;
  return {
    async apply(request: ResolvedRequest) {
      // The step wrote its own Authorization: it wins, unsigned by flowrun.
      if (hasHeader(request, "authorization")) return;
      credentials ??= resolveCredentials(a, render, services);
      const { payloadHash, signV4 } = await sigv4Module.load();
      const bytes = request.payload instanceof FormData
        ? await multipartBytes(request)
        : request.payload;
      const url = new URL(request.url);
      const headers = request.headers.filter(([name]) => !UNSIGNED.has(name.toLowerCase()));
      if (!headers.some(([name]) => name.toLowerCase() === "host")) {
        headers.push(["host", url.host]);
      }
      const signed = signV4({
        method: request.method,
        path: url.pathname,
        query: url.search.slice(1),
        headers,
        // S3 takes a body it is not told the hash of, for bodies too large to read twice.
        payloadHash: a.unsignedPayload
          ? "UNSIGNED-PAYLOAD"
          : payloadHash(bytes ?? request.body ?? ""),
      }, {
        credentials,
        region: render(a.region),
        service: render(a.service),
        date: new Date(),
      });
      // The Authorization value is masked whole, not the header names and scope it lists.
      const scope = /Credential=[^/]+\/([^,]+), SignedHeaders=([^,]+),/.exec(signed.authorization);
      services.secret(signed.authorization, scope ? [scope[1], scope[2]] : []);
      const added = new Set(signed.headers.map(([name]) => name));
      request.headers = [
        ...request.headers.filter(([name]) => !added.has(name.toLowerCase())),
        ...signed.headers,
      ];
    },
  };
};

/** The block's keys, else those `findAwsCredentials` finds; each secret registered. */
function resolveCredentials(
  a: AwsSigV4Auth,
  render: (template: Template) => string,
  services: AuthServices,
): AwsCredentials {
  const found = a.accessKeyId || a.secretAccessKey
    ? blockCredentials(a, render)
    : foundCredentials(services.env, a.profile && render(a.profile));
  services.secret(found.secretAccessKey);
  if (found.sessionToken) services.secret(found.sessionToken);
  return found;
}

/** The keys the block gives, both or none. */
function blockCredentials(a: AwsSigV4Auth, render: (t: Template) => string): AwsCredentials {
  const id = a.accessKeyId && render(a.accessKeyId);
  const secret = a.secretAccessKey && render(a.secretAccessKey);
  if (!id || !secret) {
    // Names the block's keys only, never their values: flowrun's words all through.
    throw new AuthError(ownWords(
      `aws_sigv4: ${id ? "secret_access_key" : "access_key_id"} is ${
        a.accessKeyId && a.secretAccessKey ? "empty" : "missing"
      } while the other is given; give both (e.g. \${ENV.AWS_ACCESS_KEY_ID} and ` +
        "${ENV.AWS_SECRET_ACCESS_KEY}), or neither to read the standard AWS variables.",
    ));
  }
  const token = a.sessionToken && render(a.sessionToken);
  return { accessKeyId: id, secretAccessKey: secret, ...(token ? { sessionToken: token } : {}) };
}

/** The credentials of the environment or the shared file; an `AuthError` saying where it looked. */
function foundCredentials(
  env: (name: string) => string | undefined,
  profile: string | undefined,
): AwsCredentials {
  try {
    const { source: _, ...keys } = findAwsCredentials(plainPath(env), profile);
    return keys;
  } catch (error) {
    if (error instanceof AwsCredentialsError) {
      throw new AuthError(around("aws_sigv4: ", error.told, ""));
    }
    throw error;
  }
}

/**
 * The run's environment, but the credentials file's path read as it is: its
 * name looks secret, and a path registered as a secret would mask the
 * pieces of every path near it (the flow's own) in every output.
 */
function plainPath(env: (name: string) => string | undefined) {
  return (name: string) => name === "AWS_SHARED_CREDENTIALS_FILE" ? readEnv(name) : env(name);
}

/** A multipart body as the bytes it is sent as, and its content type with their boundary. */
async function multipartBytes(request: ResolvedRequest): Promise<Uint8Array<ArrayBuffer>> {
  const encoded = new Request("http://multipart.invalid/", {
    method: "POST",
    body: request.payload as FormData,
  });
  request.payload = new Uint8Array(await encoded.arrayBuffer());
  const type = encoded.headers.get("content-type")!;
  request.headers = request.headers.filter(([name]) => name.toLowerCase() !== "content-type");
  request.headers.push(["content-type", type]);
  return request.payload;
}
