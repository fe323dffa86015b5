import assert from "node:assert/strict";
import { newCorrelator } from "../../../lib/convert/correlate/pipeline.ts";
import { rewriteUrl } from "../../../lib/convert/correlate/rewrite_url.ts";
import type { Step } from "../../../lib/convert/model.ts";
import { recordsOf } from "../../support/har_records.ts";

const step = { name: "s", uses: new Set<string>() } as unknown as Step;

Deno.test("rewriteUrl: the origin a var, a client-made UUID fresh, a secret query value a variable", () => {
  const [r] = recordsOf([
    { url: "https://a.test/files/6f1c2b7e-8d4a-4e3f-9a1b-c5d6e7f80912?api_key=k3y-991a&page=2" },
  ]);
  const c = newCorrelator("a");
  assert.equal(
    rewriteUrl(c, r, step),
    "${vars.base_url}/files/${RANDOM.UUID}?api_key=${ENV.API_KEY}&page=2",
  );
});

Deno.test("rewriteUrl keeps the recorded encoding of a query value it does not replace", () => {
  const [r] = recordsOf([{ url: "https://a.test/search?q=a%20b+c&flag" }]);
  assert.equal(rewriteUrl(newCorrelator("a"), r, step), "${vars.base_url}/search?q=a%20b+c&flag");
});
