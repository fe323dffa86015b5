import assert from "node:assert/strict";
import { HANG_MS } from "../support/timing.ts";
import { createHash } from "node:crypto";
import { ChallengeSyntaxError, parseChallenges } from "../../lib/http/auth_challenge.ts";
import {
  digestAuthorization,
  DigestError,
  isStale,
  pickDigestChallenge,
} from "../../lib/http/digest.ts";

/** The fields of a Digest `Authorization` value, unquoted (read back with the challenge reader). */
function fields(value: string): Map<string, string> {
  const [parsed] = parseChallenges(value);
  assert.equal(parsed.scheme, "Digest");
  return parsed.params;
}

// RFC 7616 §3.9.1: one request, answered for MD5 and for SHA-256.
const RFC7616 = {
  challenge: (algorithm: string) =>
    `Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=${algorithm}, ` +
    `nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", ` +
    `opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"`,
  cnonce: "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ",
};

Deno.test("RFC 7616 §3.9.1: the MD5 and SHA-256 Authorization headers, field by field", () => {
  const expected = {
    "MD5": "8ca523f5e9506fed4657c9700eebdbec",
    "SHA-256": "753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1",
  };
  for (const [algorithm, response] of Object.entries(expected)) {
    const value = digestAuthorization({
      method: "GET",
      uri: "/dir/index.html",
      username: "Mufasa",
      password: "Circle of Life",
      challenge: pickDigestChallenge(RFC7616.challenge(algorithm)),
      cnonce: RFC7616.cnonce,
    });
    // The RFC's header, in its order, fields unquoted or quoted as it writes them.
    assert.equal(
      value,
      `Digest username="Mufasa", realm="http-auth@example.org", uri="/dir/index.html", ` +
        `algorithm=${algorithm}, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", ` +
        `nc=00000001, cnonce="${RFC7616.cnonce}", qop=auth, response="${response}", ` +
        `opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"`,
    );
  }
});

Deno.test("RFC 2617 §3.5: the MD5 example (qop=auth, opaque) gives its response", () => {
  const challenge = pickDigestChallenge(
    'Digest realm="testrealm@host.com", qop="auth,auth-int", ' +
      'nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"',
  );
  const value = digestAuthorization({
    method: "GET",
    uri: "/dir/index.html",
    username: "Mufasa",
    password: "Circle Of Life",
    challenge,
    cnonce: "0a4f113b",
  });
  const got = fields(value);
  assert.equal(got.get("response"), "6629fae49393a05397450978507c4ef1");
  assert.equal(got.get("nc"), "00000001");
  assert.equal(got.get("opaque"), "5ccc069c403ebaf9f0171e9517f40e41");
});

const h = (name: string, text: string) => createHash(name).update(text, "utf8").digest("hex");

Deno.test("-sess, no qop, userhash and a non-ASCII username follow RFC 7616's formulas", () => {
  const base = { method: "POST", uri: "/a?b=c", username: "u", password: "p", cnonce: "CN" };
  const sess = fields(digestAuthorization({
    ...base,
    nc: 2,
    challenge: pickDigestChallenge('Digest realm="r", nonce="N", qop=auth, algorithm=SHA-256-sess'),
  }));
  const ha1 = h("sha256", `${h("sha256", "u:r:p")}:N:CN`);
  assert.equal(sess.get("nc"), "00000002");
  assert.equal(
    sess.get("response"),
    h("sha256", `${ha1}:N:00000002:CN:auth:${h("sha256", "POST:/a?b=c")}`),
  );
  // No qop (RFC 2069): no nc, cnonce or qop fields, and the short formula.
  const legacy = fields(digestAuthorization({
    ...base,
    challenge: pickDigestChallenge('Digest realm="r", nonce="N"'),
  }));
  assert.equal(legacy.has("nc") || legacy.has("cnonce") || legacy.has("qop"), false);
  assert.equal(
    legacy.get("response"),
    h("md5", `${h("md5", "u:r:p")}:N:${h("md5", "POST:/a?b=c")}`),
  );
  // An empty qop="" is no qop too: the http-auth package sends it so when set to none.
  const empty = digestAuthorization({
    ...base,
    challenge: pickDigestChallenge('Digest realm="r", qop="", nonce="N", algorithm="MD5"'),
  });
  assert.deepEqual(fields(empty), legacy);
  // RFC 7616 §3.9.2's user (its printed hash values are in the RFC's errata; the formula is not).
  const jason = { ...base, username: "Jäsøn Doe", password: "Secret, or not?" };
  const hashed = fields(digestAuthorization({
    ...jason,
    challenge: pickDigestChallenge(
      'Digest realm="api@example.org", nonce="N", qop="auth", algorithm=SHA-512-256, userhash=true',
    ),
  }));
  assert.equal(hashed.get("username"), h("sha512-256", "Jäsøn Doe:api@example.org"));
  assert.equal(hashed.get("userhash"), "true");
  const plain = digestAuthorization({
    ...jason,
    challenge: pickDigestChallenge('Digest realm="api@example.org", nonce="N", qop="auth"'),
  });
  assert.match(plain, /^Digest username\*=UTF-8''J%C3%A4s%C3%B8n%20Doe, /);
});

Deno.test("a cnonce is fresh for every answer, and quotes in values are escaped", () => {
  const challenge = pickDigestChallenge('Digest realm="say \\"hi\\"", nonce="N", qop=auth');
  const input = { method: "GET", uri: "/", username: 'a"b', password: "p", challenge };
  const one = fields(digestAuthorization(input));
  const two = fields(digestAuthorization(input));
  assert.match(one.get("cnonce")!, /^[0-9a-f]{32}$/);
  assert.notEqual(one.get("cnonce"), two.get("cnonce"));
  assert.equal(one.get("realm"), 'say "hi"');
  assert.equal(one.get("username"), 'a"b');
});

Deno.test("challenges: several in one header, quoted commas, unknown parameters, token68", () => {
  const header = 'Newauth realm="apps", type=1, title="Login to \\"apps\\"", ' +
    'Basic realm="simple", Negotiate YIIB/w==, Digest realm="a,b" , NONCE = "x", ' +
    'algorithm=SHA-256, future=thing, qop="auth"';
  const parsed = parseChallenges(header);
  assert.deepEqual(parsed.map((c) => c.scheme), ["Newauth", "Basic", "Negotiate", "Digest"]);
  assert.equal(parsed[0].params.get("title"), 'Login to "apps"');
  assert.equal(parsed[2].token68, "YIIB/w==");
  assert.equal(parsed[3].params.get("realm"), "a,b");
  assert.equal(parsed[3].params.get("nonce"), "x");
  assert.equal(parsed[3].params.get("future"), "thing");
  assert.equal(pickDigestChallenge(header).params.get("algorithm"), "SHA-256");
  // Two WWW-Authenticate headers, as the runtime joins them.
  const joined = 'Digest realm="r", nonce="1", algorithm=SHA-256, Digest realm="r", nonce="2"';
  assert.equal(parseChallenges(joined).length, 2);
  assert.equal(pickDigestChallenge("digest REALM=r,NONCE=n").params.get("realm"), "r");
});

Deno.test("a header that does not parse is a syntax error at its position", () => {
  for (
    const [header, offset] of [
      ['Digest realm="open', 18],
      ["realm=x", 5],
      ["Digest realm=@x", 13],
      ['Digest realm="a" nonce="b"', 17],
    ] as const
  ) {
    assert.throws(
      () => parseChallenges(header),
      (e) => e instanceof ChallengeSyntaxError && e.offset === offset,
      header,
    );
  }
});

Deno.test("no usable Digest challenge is a DigestError that quotes what the server sent", () => {
  const cases: [string | null, DigestError["code"], RegExp][] = [
    [null, "digest-no-challenge", /without a WWW-Authenticate header/],
    ['Basic realm="x"', "digest-no-challenge", /"Basic realm=\\"x\\"", which has no Digest/],
    ['Digest realm="x", nonce="n", algorithm=SHA-1', "digest-unsupported", /algorithm "SHA-1"/],
    ['Digest realm="x", nonce="n", qop="auth-int"', "digest-unsupported", /qop "auth-int"/],
    ['Digest realm="x"', "digest-unsupported", /no realm or no nonce/],
    ['Digest realm="x', "digest-no-challenge", /never closed/],
  ];
  for (const [header, code, message] of cases) {
    assert.throws(
      () => pickDigestChallenge(header),
      (e) => e instanceof DigestError && e.code === code && message.test(e.message),
      String(header),
    );
  }
  assert.ok(isStale(pickDigestChallenge('Digest realm="r", nonce="n", stale="true"')));
});

Deno.test("any header text: challenges or a ChallengeSyntaxError, never another error, in bounded time", () => {
  let seed = 42;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pieces = [
    "Digest",
    "Basic",
    " ",
    ",",
    "=",
    '"',
    "\\",
    "realm",
    "nonce",
    "a",
    "==",
    "\t",
    "é",
    "/",
  ];
  const started = performance.now();
  for (let i = 0; i < 5000; i++) {
    const n = Math.floor(next() * 30);
    const header = Array.from({ length: n }, () => pieces[Math.floor(next() * pieces.length)]).join(
      "",
    );
    try {
      for (const c of parseChallenges(header)) assert.ok(c.scheme.length > 0, header);
    } catch (error) {
      assert.ok(error instanceof ChallengeSyntaxError, `${header}: ${error}`);
    }
    try {
      pickDigestChallenge(header);
    } catch (error) {
      assert.ok(error instanceof DigestError, `${header}: ${error}`);
    }
  }
  // A header far past what servers send is read up to its cap.
  const huge = `Digest realm="r", nonce="n", ${"x=y, ".repeat(200_000)}`;
  assert.equal(pickDigestChallenge(huge).params.get("nonce"), "n");
  // A hang guard only: a quadratic read of the 1 MB header would take hours.
  assert.ok(performance.now() - started < HANG_MS);
});
