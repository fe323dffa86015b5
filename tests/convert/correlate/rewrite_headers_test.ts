import assert from "node:assert/strict";
import { newCorrelator } from "../../../lib/convert/correlate/pipeline.ts";
import { headers } from "../../../lib/convert/correlate/rewrite_headers.ts";
import type { Step } from "../../../lib/convert/model.ts";
import { recordsOf } from "../../support/har_records.ts";

const step = { name: "get_me", uses: new Set<string>() } as unknown as Step;

Deno.test("headers: noise dropped, secrets required, a fresh header generated", () => {
  const [r] = recordsOf([{
    url: "https://a.test/me",
    headers: [
      ["Host", "a.test"],
      ["Accept", "application/json"],
      ["X-Api-Key", "k3y-91ab7c"],
      ["Idempotency-Key", "0a1b2c3d4e5f"],
    ],
  }]);
  const c = newCorrelator("a");
  assert.deepEqual(headers(c, r, step), [
    ["accept", "application/json"],
    ["x-api-key", "${ENV.API_KEY}"],
    ["idempotency-key", "${RANDOM.HEX_12}"],
  ]);
});

Deno.test("a request recorded without its cookies sends the ones earlier responses set", () => {
  const [r] = recordsOf([{ url: "https://a.test/me" }]);
  const c = newCorrelator("a");
  c.jar.set("a.test", new Map([["theme", "dark"]]));
  assert.deepEqual(headers(c, r, step), [["cookie", "theme=dark"]]);
  assert.equal(c.jarFilled, 1);
});
