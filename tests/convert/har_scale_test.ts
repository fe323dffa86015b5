/**
 * `convert har` on a long recording: a journey of thousands of requests
 * (a day's session, a load of items created one by one) converts in time
 * linear in its length. Each stage that looked back over every earlier
 * request for every new one made it quadratic: a 4,000-request recording
 * took close to a minute, 8,000 several. The recording here has what those
 * stages read: a login page with a hidden token, a bearer token, an id per
 * create read back by the next request, and requests begun at the same
 * millisecond (a page's burst, or a producer that writes coarse times).
 */
import assert from "node:assert/strict";
import { convertHar } from "../../lib/convert/har.ts";
import { assertLinear } from "../support/timing.ts";

/** One HAR entry begun at `started` that took 5 ms. */
function entry(method: string, url: string, sent: unknown, answer: unknown, started: number) {
  const html = typeof answer === "string";
  return {
    startedDateTime: new Date(started).toISOString(),
    time: 5,
    request: {
      method,
      url,
      headers: [{ name: "Authorization", value: "Bearer 9c1f2e7a4b6d8f0a3c5e7b9d1f3a5c7e" }],
      ...(sent === undefined
        ? {}
        : { postData: { mimeType: "application/json", text: JSON.stringify(sent) } }),
    },
    response: {
      status: method === "POST" ? 201 : 200,
      content: html
        ? { mimeType: "text/html", text: answer }
        : { mimeType: "application/json", text: JSON.stringify(answer) },
    },
  };
}

/** A recording of a sign-in and `n` items each created and read back. */
function recording(n: number): string {
  const at = Date.UTC(2026, 0, 1);
  const page = '<form method="post"><input type="hidden" name="csrf" value="f3a9c2e1d7b5">' +
    '<input name="user"></form>';
  const entries = [
    entry("GET", "http://app.test/login", undefined, page, at),
    entry("POST", "http://app.test/api/login", { csrf: "f3a9c2e1d7b5" }, {
      token: "9c1f2e7a4b6d8f0a3c5e7b9d1f3a5c7e",
    }, at),
  ];
  for (let i = 0; i < n; i++) {
    const id = `it_${(i * 2654435761 % 4294967296).toString(16).padStart(8, "0")}${i}`;
    const started = at + 1_000 + Math.floor(i / 4); // four requests begun in each millisecond
    entries.push(
      entry(
        "POST",
        "http://app.test/api/items",
        { name: `item ${i}` },
        { id, name: `item ${i}` },
        started,
      ),
      entry(
        "GET",
        `http://app.test/api/items/${id}`,
        undefined,
        { id, name: `item ${i}` },
        started,
      ),
    );
  }
  return JSON.stringify({ log: { version: "1.2", entries } });
}

Deno.test("a recording of thousands of requests converts in linear time", () => {
  const hars = new Map([150, 1_200].map((n) => [n, recording(n)]));
  const last = convertHar(hars.get(1_200)!).yaml;
  // What the stages were for is still done at scale: the last read uses the last create's id.
  assert.match(
    last,
    /url: \$\{vars\.base_url\}\/api\/items\/\$\{steps\.create_item_1200\.capture\.item_id\}\n/,
  );
  // 8 times the requests: well under 8 × 3 the time (quadratic would be 64 ×).
  assertLinear("har convert", (n) => convertHar(hars.get(n)!), 150, 8, 3);
});

/**
 * `recording(n)` with a call to another site before each create, each on a host of its own
 * answering a generated value nothing sends again: every one is read for whether the app's
 * later requests send what it answered (producer_hosts.ts), once, not against every request.
 */
function withForeignCalls(n: number): string {
  const har = JSON.parse(recording(n));
  const entries: unknown[] = [];
  for (const [i, e] of (har.log.entries as { request: { method: string } }[]).entries()) {
    if (e.request.method === "POST" && i > 1) {
      const visitor = `v_${(i * 40503).toString(16)}a${i}`;
      entries.push({
        ...e,
        request: {
          method: "POST",
          url: `http://w${i}.widgets-${i}.example/widget/state`,
          headers: [],
        },
        response: {
          status: 200,
          content: { mimeType: "application/json", text: JSON.stringify({ visitor }) },
        },
      });
    }
    entries.push(e);
  }
  return JSON.stringify({ log: { ...har.log, entries } });
}

Deno.test("a recording with a call to another site before each request converts in linear time", () => {
  const hars = new Map([150, 1_200].map((n) => [n, withForeignCalls(n)]));
  assert.doesNotMatch(convertHar(hars.get(150)!).yaml, /widgets/);
  assertLinear("har convert, foreign calls", (n) => convertHar(hars.get(n)!), 150, 8, 3);
});
