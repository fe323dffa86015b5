import assert from "node:assert/strict";
import { networkReason } from "../../lib/http/network_reason.ts";

const wrapped = (detail: string) =>
  new TypeError(
    `error sending request for url (http://x.test/): client error (Connect): ${detail}`,
  );

Deno.test("the runtime's wording of each failure becomes a plain reason", () => {
  const cases: [string, string][] = [
    ["tcp connect error: Connection refused (os error 111)", "connection refused"],
    ["dns error: failed to lookup address information", "could not resolve the host"],
    ["connection reset by peer", "connection reset by the server"],
    [
      "invalid HTTP version parsed",
      "the server did not reply with HTTP (its first line is not an HTTP status line)",
    ],
    [
      "received corrupt message of type InvalidContentType",
      "the server does not speak TLS on that port (use http:// if it serves plain HTTP)",
    ],
  ];
  for (const [detail, reason] of cases) assert.equal(networkReason(wrapped(detail)), reason);
});

Deno.test("a certificate verdict is worded with what to do about it", () => {
  const reason = networkReason(wrapped("invalid peer certificate: UnknownIssuer"));
  assert.match(
    reason,
    /^TLS error: the server's certificate is not signed by a CA this machine trusts \(UnknownIssuer\); trust its CA/,
  );
});

Deno.test("a failure after the head arrived is told from what the head announced", () => {
  const gzip = new Response(null, { headers: { "content-encoding": "gzip" } });
  assert.match(
    networkReason(new Error("corrupt deflate stream"), gzip),
    /could not be decompressed: its content-encoding is "gzip"/,
  );
  const chunked = new Response(null, { headers: { "transfer-encoding": "chunked" } });
  assert.equal(
    networkReason(new Error("x"), chunked),
    "the server sent a malformed or cut-off chunked body",
  );
  assert.equal(
    networkReason(new Error("connection closed before message completed")),
    "the server closed the connection without sending a response",
  );
});

Deno.test("an unknown failure quotes the runtime, at most 300 characters of it", () => {
  assert.equal(networkReason(new Error("fetch failed something odd.")), "something odd");
  const long = networkReason(new Error("y".repeat(1000)));
  assert.ok(long.startsWith("y".repeat(300) + "… (1,000 characters)"));
});
