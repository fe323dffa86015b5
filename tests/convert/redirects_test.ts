import assert from "node:assert/strict";
import { parseHar } from "../../lib/convert/har_model.ts";
import { reattachRedirectCookies } from "../../lib/convert/redirects.ts";

Deno.test("a cookie a redirect set but the HAR gave the page after it goes back to the redirect", () => {
  const { records } = parseHar(
    JSON.stringify({
      log: {
        entries: [
          {
            request: { method: "POST", url: "https://app.test/login" },
            response: { status: 303, headers: [{ name: "location", value: "/home" }] },
          },
          {
            request: {
              method: "GET",
              url: "https://app.test/home",
              headers: [{ name: "cookie", value: "sid=s-7654321" }],
            },
            response: {
              status: 200,
              headers: [{ name: "set-cookie", value: "sid=s-7654321; Path=/" }],
            },
          },
        ],
      },
    }),
    [],
  );
  const notes = reattachRedirectCookies(records);
  assert.deepEqual(records[0].setCookies, [{ name: "sid", value: "s-7654321" }]);
  assert.deepEqual(records[1].setCookies, []);
  assert.equal(notes.length, 1);
  assert.deepEqual(reattachRedirectCookies(records), []);
});
