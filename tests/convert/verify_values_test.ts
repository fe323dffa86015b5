import assert from "node:assert/strict";
import type { HarRecord } from "../../lib/convert/har_model.ts";
import { handedOut, sentText } from "../../lib/convert/verify_values.ts";

Deno.test("handedOut lists what a response hands out, with where", () => {
  const r = {
    json: { id: "prj_1a2b3c", n: 7 },
    hasJson: true,
    setCookies: [{ name: "sid", value: "s3cr3tv4lue" }],
    mimeType: "application/json",
    raw: { response: { headers: [] } },
  } as unknown as HarRecord;
  assert.deepEqual(handedOut(r).map((h) => [h.value, h.label]), [
    ["s3cr3tv4lue", 'the cookie "sid"'],
    ["prj_1a2b3c", '"id" in the JSON body'],
  ]);
});

Deno.test("sentText holds the decoded URL, the headers and the body", () => {
  const r = {
    url: new URL("https://a.test/x/prj%2F1?q=a+b"),
    headers: [{ name: "x", value: "h1" }],
    cookies: [],
    bodyText: '{"k":"body-v"}',
  } as unknown as HarRecord;
  const text = sentText(r);
  for (const part of ["prj/1", "h1", "body-v"]) assert.ok(text.includes(part), part);
});
