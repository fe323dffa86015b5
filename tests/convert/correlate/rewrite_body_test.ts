import assert from "node:assert/strict";
import { newCorrelator } from "../../../lib/convert/correlate/pipeline.ts";
import { formFields, rewriteBody } from "../../../lib/convert/correlate/rewrite_body.ts";
import type { Step } from "../../../lib/convert/model.ts";
import type { YMap } from "../../../lib/convert/yaml_out.ts";
import { recordsOf } from "../../support/har_records.ts";

const newStep = () =>
  ({
    name: "s",
    uses: new Set(),
    sent: new Map(),
    headers: [["content-type", "x"]],
    first: { method: "POST", url: new URL("http://h/items") },
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

Deno.test("a recorded field name holding ${ is escaped in form and multipart bodies, whose names are templates", () => {
  const c = newCorrelator("a");
  const [form, parts] = recordsOf([
    {
      method: "POST",
      url: "https://a.test/x",
      mime: "application/x-www-form-urlencoded",
      body: "a%24%7Bb%7D=1",
    },
    {
      method: "POST",
      url: "https://a.test/y",
      headers: [["content-type", "multipart/form-data; boundary=xyz"]],
      mime: "multipart/form-data",
      body: '--xyz\r\nContent-Disposition: form-data; name="a${b}"\r\n\r\n1\r\n--xyz--\r\n',
    },
  ]);
  const a = { ...newStep(), first: form, last: form } as Step;
  rewriteBody(c, form, a, false);
  assert.deepEqual((a.form as YMap).entries.map(([k]) => k), ["a$${b}"]);
  const b = { ...newStep(), first: parts, last: parts } as Step;
  rewriteBody(c, parts, b, false);
  assert.deepEqual((b.multipart as YMap).entries.map(([k]) => k), ["a$${b}"]);
});
