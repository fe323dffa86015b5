import assert from "node:assert/strict";
import { cleanHeaders, isAnalyticsCookie, keepHeader } from "../../lib/convert/noise_headers.ts";

Deno.test("the browser's own headers are dropped, the app's kept, names lower-cased once each", () => {
  assert.ok(!keepHeader("Content-Length") && !keepHeader("sec-ch-ua") && keepHeader("X-Api-Key"));
  const kept = cleanHeaders([
    { name: "Host", value: "a.test" },
    { name: "Accept", value: "application/json" },
    { name: "accept", value: "text/html" },
    { name: "X-Tenant", value: "t1" },
  ]).map((h) => h.name);
  assert.deepEqual(kept, ["accept", "x-tenant"]);
});

Deno.test("analytics cookies are told apart from the app's", () => {
  assert.ok(isAnalyticsCookie("_ga") && isAnalyticsCookie("_gid"));
  assert.ok(!isAnalyticsCookie("sessionid") && !isAnalyticsCookie("csrftoken"));
});
