import assert from "node:assert/strict";
import { HandedOut, responseHeaders } from "../../lib/convert/handed.ts";
import type { HarRecord } from "../../lib/convert/har_model.ts";
import type { Step } from "../../lib/convert/model.ts";

const record = (o: Record<string, unknown>) => o as unknown as HarRecord;

Deno.test("an ETag and a URL a response hands out are sent back whole", () => {
  const last = record({
    url: new URL("https://a.test/jobs/1"),
    hasJson: true,
    json: { result: "/dl/x.csv?sig=ab12" },
    raw: { response: { headers: [{ name: "ETag", value: '"v2"' }] } },
  });
  assert.equal(responseHeaders(last)[0].value, '"v2"');
  const handed = new HandedOut();
  const step = { name: "get_job", last } as unknown as Step;
  handed.note(step);
  assert.equal(handed.etags.get('"v2"')?.source.kind, "header");
  assert.equal(
    handed.urlOf(record({ url: new URL("https://a.test/dl/x.csv?sig=ab12") }))?.step,
    step,
  );
  const found = handed.ifMatch(record({ headers: [{ name: "If-Match", value: '"v2"' }] }));
  assert.equal(found?.producer?.step, step);
  assert.equal(handed.ifMatch(record({ headers: [] })), undefined);
});
