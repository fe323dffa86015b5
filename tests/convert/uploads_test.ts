import assert from "node:assert/strict";
import { parseHar } from "../../lib/convert/har_model.ts";
import {
  fillUploadsFromForms,
  formFields,
  formSource,
  multipartParts,
  placeholderPath,
  sentFileName,
  TYPED_PLACEHOLDER,
} from "../../lib/convert/uploads.ts";

Deno.test("multipartParts reads text fields and file parts; a part without a name is no body", () => {
  const text = '--b\r\nContent-Disposition: form-data; name="t"\r\n\r\nQ3\r\n' +
    '--b\r\nContent-Disposition: form-data; name="f"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\nx,y\r\n--b--\r\n';
  const [t, f] = multipartParts(text, "b")!;
  assert.equal(t.value, "Q3");
  assert.deepEqual([f.fileName, f.contentType, f.content], ["a.csv", "text/csv", "x,y"]);
  assert.equal(
    multipartParts("--b\r\nContent-Disposition: form-data\r\n\r\nx\r\n--b--", "b"),
    undefined,
  );
});

Deno.test("file names: a safe path beside the flow, the recorded name sent when it differs", () => {
  assert.equal(placeholderPath("C:\\scans\\Cover 1.pdf"), "uploads/Cover_1.pdf");
  assert.equal(placeholderPath("../.."), "uploads/upload.bin");
  assert.equal(sentFileName("../a b.pdf"), "a b.pdf");
  assert.equal(sentFileName("plan.csv"), undefined);
});

Deno.test("formFields: a form's controls as a browser submits them", () => {
  const fields = formFields(
    '<input type="hidden" name="t" value="1"><input name="t" value="2">' +
      '<textarea name="note"></textarea><input name="off" disabled value="x">' +
      '<input name="title" required><textarea name="body" required></textarea>' +
      '<input type="radio" name="r" value="a"><input type="radio" name="r" value="b" checked>' +
      '<select name="s"><option>First<option>Second</select><button name="go" value="1">Go</button>',
  );
  assert.deepEqual(fields, [
    { name: "t", value: "2" },
    // An optional field the page left empty goes empty; a required one was typed into.
    { name: "note", value: "", blank: true },
    { name: "title", value: TYPED_PLACEHOLDER, typed: true },
    { name: "body", value: TYPED_PLACEHOLDER, typed: true },
    { name: "r", value: "b" },
    { name: "s", value: "First" },
    { name: "go", value: "1" },
  ]);
});

Deno.test("an upload recorded without its body takes the fields of the form that posted it", () => {
  const har = parseHar(
    JSON.stringify({
      log: {
        entries: [
          {
            request: { method: "GET", url: "https://app.test/docs/new" },
            _resourceType: "document",
            response: {
              status: 200,
              content: {
                mimeType: "text/html",
                text:
                  '<form method="post" action="/docs" enctype="multipart/form-data"><input name="title" value="Q3"><input type="file" name="doc"></form>',
              },
            },
          },
          {
            request: {
              method: "POST",
              url: "https://app.test/docs",
              headers: [{ name: "content-type", value: "multipart/form-data; boundary=b" }],
            },
            response: { status: 302, content: { mimeType: "text/html", text: "" } },
            _resourceType: "document",
          },
        ],
      },
    }),
    [],
  );
  assert.equal(formSource(har.records[1]), undefined);
  assert.equal(fillUploadsFromForms([har.records[1]], har.records), 1);
  assert.equal(formSource(har.records[1])?.page, "GET /docs/new");
  assert.match(har.records[1].bodyText ?? "", /name="title"\r\n\r\nQ3/);
});
