import assert from "node:assert/strict";
import {
  canonicalPath,
  canonicalQuery,
  payloadHash,
  signingKey,
  signV4,
} from "../../lib/http/sigv4.ts";

/**
 * AWS's SigV4 test suite, the header-signing files of every case of
 * `tests/aws-signing-test-suite/v4` in awslabs/aws-c-auth (the suite the
 * AWS SDKs share; the commit is in the file's `source`), unchanged.
 */
const suite = JSON.parse(
  await Deno.readTextFile(new URL("../fixtures/aws_sigv4/suite.json", import.meta.url)),
) as {
  source: string;
  cases: Record<string, {
    context: {
      credentials: { access_key_id: string; secret_access_key: string; token?: string };
      normalize: boolean;
      region: string;
      service: string;
      sign_body: boolean;
      timestamp: string;
      omit_session_token?: boolean;
    };
    request: string;
    canonical_request: string;
    string_to_sign: string;
    signature: string;
    signed_request: string;
  }>;
};

/** A request of the suite (`request.txt`): its line, headers (folded lines joined) and body. */
function parseRequest(text: string) {
  const [head, ...rest] = text.split("\n\n");
  const [line, ...headerLines] = head.split("\n").filter((l) => l !== "");
  const method = line.slice(0, line.indexOf(" "));
  const target = line.slice(method.length + 1, line.lastIndexOf(" "));
  const headers: [string, string][] = [];
  for (const header of headerLines) {
    if (/^\s/.test(header)) headers[headers.length - 1][1] += `\n${header}`;
    else {headers.push([
        header.slice(0, header.indexOf(":")),
        header.slice(header.indexOf(":") + 1),
      ]);}
  }
  const at = target.indexOf("?");
  const [path, query] = at < 0 ? [target, ""] : [target.slice(0, at), target.slice(at + 1)];
  return { method, path, query, headers, body: rest.join("\n\n") };
}

/** A header of the suite's signed request. */
function signedHeader(text: string, name: string): string | undefined {
  const line = text.split("\n").find((l) => l.toLowerCase().startsWith(`${name}:`));
  return line?.slice(name.length + 1);
}

Deno.test("every case of AWS's SigV4 test suite: canonical request, string to sign, signature", () => {
  const names = Object.keys(suite.cases);
  assert.ok(suite.source.startsWith("https://github.com/awslabs/aws-c-auth/tree/"));
  assert.ok(names.length >= 38, `${names.length} cases`);
  for (
    const required of [
      "get-vanilla",
      "get-vanilla-query-order-key-case",
      "post-x-www-form-urlencoded",
      "get-header-value-trim",
      "get-slashes-normalized",
      "get-relative-relative-unnormalized",
      "get-utf8",
      "post-sts-header-before",
      "get-vanilla-with-session-token",
    ]
  ) assert.ok(names.includes(required), required);
  for (const [name, c] of Object.entries(suite.cases)) {
    const request = parseRequest(c.request);
    const { context } = c;
    const signed = signV4(
      { ...request, payloadHash: payloadHash(request.body) },
      {
        credentials: {
          accessKeyId: context.credentials.access_key_id,
          secretAccessKey: context.credentials.secret_access_key,
          sessionToken: context.credentials.token,
        },
        region: context.region,
        service: context.service,
        date: new Date(context.timestamp),
        contentSha256: context.sign_body,
        signSessionToken: !context.omit_session_token,
        normalizePath: context.normalize,
      },
    );
    assert.equal(signed.canonicalRequest, c.canonical_request, `${name}: canonical request`);
    assert.equal(signed.stringToSign, c.string_to_sign, `${name}: string to sign`);
    assert.equal(signed.signature, c.signature, `${name}: signature`);
    const added = new Map(signed.headers);
    assert.equal(added.get("authorization"), signedHeader(c.signed_request, "authorization"), name);
    assert.equal(added.get("x-amz-date"), signedHeader(c.signed_request, "x-amz-date"), name);
    assert.equal(
      added.get("x-amz-security-token"),
      signedHeader(c.signed_request, "x-amz-security-token"),
      `${name}: the session token is sent (signed or not, as the case says)`,
    );
  }
});

const EMPTY = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
const S3_HOST = "examplebucket.s3.amazonaws.com";

Deno.test("S3: the signatures of the examples in AWS's S3 documentation (path encoded once)", () => {
  // "Signature Calculations for the Authorization Header: Transferring Payload in a Single
  // Chunk", docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html.
  const welcome = payloadHash("Welcome to Amazon S3.");
  const examples: [string, string, string, [string, string][], string, string][] = [
    [
      "GET",
      "/test.txt",
      "",
      [["Range", "bytes=0-9"]],
      EMPTY,
      "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41",
    ],
    [
      "PUT",
      "/test$file.text",
      "",
      [["Date", "Fri, 24 May 2013 00:00:00 GMT"], ["x-amz-storage-class", "REDUCED_REDUNDANCY"]],
      welcome,
      "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd",
    ],
    [
      "GET",
      "/",
      "lifecycle",
      [],
      EMPTY,
      "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543",
    ],
    [
      "GET",
      "/",
      "prefix=J&max-keys=2",
      [],
      EMPTY,
      "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7",
    ],
  ];
  for (const [method, path, query, headers, hash, signature] of examples) {
    const signed = signV4(
      { method, path, query, headers: [["host", S3_HOST], ...headers], payloadHash: hash },
      {
        credentials: {
          accessKeyId: "AKIAIOSFODNN7EXAMPLE",
          secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        },
        region: "us-east-1",
        service: "s3",
        date: new Date("2013-05-24T00:00:00Z"),
      },
    );
    assert.equal(signed.signature, signature, `${method} ${path}?${query}`);
    assert.match(signed.authorization, /SignedHeaders=[^,]*x-amz-content-sha256;x-amz-date[;,]/);
    assert.equal(new Map(signed.headers).get("x-amz-content-sha256"), hash);
  }
});

Deno.test("the path: other services encode the sent path again, S3 once; only they normalize", () => {
  const sent = "/a%20b/./c/../d%2Fe/";
  assert.equal(canonicalPath(sent, { normalize: true, encodeTwice: true }), "/a%2520b/d%252Fe/");
  assert.equal(
    canonicalPath(sent, { normalize: false, encodeTwice: false }),
    "/a%20b/./c/../d%2Fe/",
  );
  // Characters a URL leaves as they are, AWS encodes; an escape that is no UTF-8 stays.
  assert.equal(
    canonicalPath("/it's(1)*!", { normalize: false, encodeTwice: false }),
    "/it%27s%281%29%2A%21",
  );
  assert.equal(
    canonicalPath("/%E1%88%B4%ZZ", { normalize: false, encodeTwice: false }),
    "/%E1%88%B4%25ZZ",
  );
  assert.equal(canonicalPath("", { normalize: true, encodeTwice: true }), "/");
  // The query: '+' is a plus, not a space; a name without '=' has an empty value.
  assert.equal(canonicalQuery("q=a+b&flag&z=%7e"), "flag=&q=a%2Bb&z=~");
});

Deno.test("the signing key of AWS's documentation example", () => {
  const key = signingKey(
    "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
    "20150830",
    "us-east-1",
    "iam",
  );
  assert.equal(
    [...key].map((b) => b.toString(16).padStart(2, "0")).join(""),
    "c4afb1cc5771d871763a393e44b703571b55cc28424d1a5e86da6ed3c154a4b9",
  );
});
