import assert from "node:assert/strict";
import { redirectTarget } from "../../lib/http/redirect.ts";
import type { ResolvedRequest } from "../../lib/http/request.ts";

const post: ResolvedRequest = {
  method: "POST",
  url: "https://a.test/login",
  headers: [["content-type", "text/plain"], ["authorization", "x"], ["x-keep", "1"]],
  body: "u=1",
};

Deno.test("301 and 302 after a POST, and 303, continue as a GET without the body", () => {
  for (const status of [301, 302, 303]) {
    const next = redirectTarget(post, status, "/home")!;
    assert.equal(next.method, "GET");
    assert.equal(next.url, "https://a.test/home");
    assert.equal(next.body, undefined);
    assert.deepEqual(next.headers, [["authorization", "x"], ["x-keep", "1"]]);
  }
});

Deno.test("307 and 308 repeat the request; another origin gets no credentials", () => {
  const next = redirectTarget(post, 308, "https://b.test/again")!;
  assert.equal(next.method, "POST");
  assert.equal(next.body, "u=1");
  assert.deepEqual(next.headers, [["content-type", "text/plain"], ["x-keep", "1"]]);
});

Deno.test("no redirect without a redirect status or a usable http(s) location", () => {
  assert.equal(redirectTarget(post, 200, "/x"), undefined);
  assert.equal(redirectTarget(post, 302, undefined), undefined);
  assert.equal(redirectTarget(post, 302, "ftp://a.test/x"), undefined);
  assert.equal(redirectTarget(post, 302, "http://[bad"), undefined);
});
