/**
 * curl's URL globs as `convert curl` expands them: the order curl sends
 * them in (checked against the real curl by the corpus's `scripts.sh`),
 * ranges, escapes, IPv6 hosts, `-g`, malformed globs and the cap.
 */
import assert from "node:assert/strict";
import { expandGlob, MAX_GLOB_URLS } from "../../lib/convert/curl_glob.ts";
import { readCurlArgs } from "../../lib/convert/curl_options.ts";
import { curlRecords } from "../../lib/convert/curl_request.ts";

Deno.test("sets and ranges expand in curl's order, the first glob slowest", () => {
  assert.deepEqual(expandGlob("http://a.test/{x,y}/[1-3:2]/[a-b]")?.urls, [
    "http://a.test/x/1/a",
    "http://a.test/x/1/b",
    "http://a.test/x/3/a",
    "http://a.test/x/3/b",
    "http://a.test/y/1/a",
    "http://a.test/y/1/b",
    "http://a.test/y/3/a",
    "http://a.test/y/3/b",
  ]);
  assert.deepEqual(expandGlob("http://a.test/f[098-100]")?.urls, [
    "http://a.test/f098",
    "http://a.test/f099",
    "http://a.test/f100",
  ]);
});

Deno.test("escaped brackets and an IPv6 host are text; a malformed glob is undefined", () => {
  assert.deepEqual(expandGlob("http://[::1]:8080/q?a=\\[\\]\\{\\}")?.urls, [
    "http://[::1]:8080/q?a=[]{}",
  ]);
  assert.equal(expandGlob("http://a.test/[1-"), undefined);
  assert.equal(expandGlob("http://a.test/[x]"), undefined);
  assert.equal(expandGlob("http://a.test/{a,b"), undefined);
});

Deno.test("a glob of more than the cap keeps the first URLs and counts the rest", () => {
  const out = expandGlob("http://a.test/[1-300]");
  assert.equal(out?.urls.length, MAX_GLOB_URLS);
  assert.equal(out?.more, 300 - MAX_GLOB_URLS);
});

Deno.test("each URL of a glob is a request, noted; -g sends the URL as written", () => {
  const notes: string[] = [];
  const records = curlRecords(readCurlArgs(["https://a.test/{a,b}"]), 0, undefined, notes);
  assert.deepEqual(records.map((r) => r.record.url.pathname), ["/a", "/b"]);
  assert.match(notes[0], /The URL "https:\/\/a\.test\/\{a,b\}" is a curl glob: 2 requests\./);
  const off = curlRecords(readCurlArgs(["-g", "https://a.test/x?q=[1]"]), 0);
  assert.equal(off[0].record.url.search, "?q=[1]");
  const bad: string[] = [];
  curlRecords(readCurlArgs(["https://a.test/x?q=[1"]), 0, undefined, bad);
  assert.match(bad[0], /has a glob curl cannot read; it is sent as written/);
});
