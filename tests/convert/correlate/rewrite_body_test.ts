import assert from "node:assert/strict";
import { newCorrelator } from "../../../lib/convert/correlate/pipeline.ts";
import { formFields, rewriteBody } from "../../../lib/convert/correlate/rewrite_body.ts";
import type { Step } from "../../../lib/convert/model.ts";
import { recordsOf } from "../../support/har_records.ts";

const newStep = () =>
  ({
    name: "s",
    uses: new Set(),
    sent: new Map(),
    headers: [["content-type", "x"]],
  }) as unknown as Step;

Deno.test("a JSON body is rewritten value by value; its top-level fields are remembered", () => {
  const [r] = recordsOf([{
    method: "POST",
    url: "https://a.test/x",
    body: '{"n":1,"password":"pw-91ab"}',
  }]);
  const step = newStep();
  rewriteBody(newCorrelator("a"), r, step, false);
  assert.deepEqual([...step.sent.keys()], ["n", "password"]);
  assert.equal(step.sent.get("password")!.template, "${ENV.S_PASSWORD}");
});

Deno.test("a urlencoded body becomes form fields; a broken encoding is sent as text", () => {
  const c = newCorrelator("a");
  const mime = "application/x-www-form-urlencoded";
  const [clean, broken] = recordsOf([
    { method: "POST", url: "https://a.test/x", mime, body: "tag=a&tag=b&q=x+y" },
    { method: "POST", url: "https://a.test/y", mime, body: "q=50%" },
  ]);
  const a = newStep();
  rewriteBody(c, clean, a, false);
  assert.equal(a.body, undefined);
  assert.ok(a.form);
  const b = newStep();
  rewriteBody(c, broken, b, false);
  assert.equal(b.body, "q=50%");
  assert.deepEqual(formFields([["a", "%E0%A4%A"]]), undefined);
});

Deno.test("a multipart upload recorded without its body sends a placeholder file", () => {
  const c = newCorrelator("a");
  const [r] = recordsOf([{
    method: "POST",
    url: "https://a.test/upload",
    headers: [["content-type", "multipart/form-data; boundary=xyz"]],
    mime: "multipart/form-data",
    body: "",
  }]);
  const step = newStep();
  rewriteBody(c, r, step, false);
  assert.ok(step.multipart);
  assert.deepEqual(step.headers, []);
  assert.deepEqual(c.uploads.map((u) => [u.path, u.omitted]), [["uploads/upload.bin", true]]);
});
