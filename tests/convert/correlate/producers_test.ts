import assert from "node:assert/strict";
import { correlate } from "../../../lib/convert/correlate/pipeline.ts";
import { holdCookie } from "../../../lib/convert/correlate/producers.ts";
import { emptyCorrelator } from "../../../lib/convert/correlate/state.ts";
import { recordsOf } from "../../support/har_records.ts";

Deno.test("a page's CSRF token and a session cookie are produced; the cookie is sent back by its capture", () => {
  const html = '<html><head><meta name="csrf-token" content="c-4f9a2e71b8d3"></head></html>';
  const records = recordsOf([
    { url: "https://a.test/", html, setCookies: [["sid", "s3ss10n-91ab7c"]] },
    {
      method: "POST",
      url: "https://a.test/api/items",
      headers: [["x-csrf-token", "c-4f9a2e71b8d3"], ["cookie", "sid=s3ss10n-91ab7c"]],
      body: "{}",
    },
  ]);
  const c = correlate(records, records.map((r) => ({ records: [r] })), "a");
  const headers = Object.fromEntries(c.steps[1].headers);
  assert.match(headers["x-csrf-token"], /^\$\{steps\.open_home\.capture\./);
  assert.match(headers["cookie"], /^sid=\$\{steps\.open_home\.capture\.sid\}$/);
  assert.ok(c.secrets.has("c-4f9a2e71b8d3") && c.secrets.has("s3ss10n-91ab7c"));
});

Deno.test("holdCookie keeps the browser's cookies by host; a deleted one goes", () => {
  const c = emptyCorrelator("a", true);
  holdCookie(c, "a.test", { name: "sid", value: "1" });
  holdCookie(c, "a.test", { name: "pref", value: "dark" });
  holdCookie(c, "a.test", { name: "sid", value: "" });
  assert.deepEqual([...c.jar.get("a.test")!], [["pref", "dark"]]);
});
