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

Deno.test("handedOut: any header but the message's own, whatever its name; a link's query values", () => {
  const body = { download_url: "/files/e.csv?exp=1795571496&sig=c1e2df5bad32fe5e", id: "e_1" };
  const r = {
    json: body,
    hasJson: true,
    responseText: JSON.stringify(body),
    setCookies: [],
    mimeType: "application/json",
    raw: {
      response: {
        headers: [
          { name: "X-CSRF-Next", value: "c9a8b7c6d5e4" },
          { name: "Content-Type", value: "application/json" },
          { name: "Date", value: "Wed, 25 Nov 2026 23:00:00 GMT" },
        ],
      },
    },
  } as unknown as HarRecord;
  const found = handedOut(r);
  const values = found.map((h) => h.value);
  assert.ok(values.includes("c9a8b7c6d5e4"), values.join());
  assert.ok(!values.includes("application/json") && !values.some((v) => v.startsWith("Wed")));
  const sig = found.find((h) => h.value === "c1e2df5bad32fe5e");
  assert.equal(sig?.source.kind, "regex");
  const pattern = (sig!.source as { pattern: string }).pattern;
  assert.equal(new RegExp(pattern).exec(JSON.stringify(body))?.[1], "c1e2df5bad32fe5e");
  assert.equal(sig!.label, '"sig" in the URL "download_url" of the JSON body');
});
