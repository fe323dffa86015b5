/** A request's body: form, multipart, body_file, graphql (lib/load/body.ts). */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { stepFlowText } from "../support/step_flow.ts";
import "../support/engines.ts";

const files = {
  readFile: (path: string) =>
    path === "photo.png" ? { bytes: new Uint8Array([1, 2]) } : { message: "no such file" },
};
const load = (request: string) => loadFlow(stepFlowText([], request), "t.yaml", files);

Deno.test("multipart: fields are values, files take their type and name from the path", () => {
  const { flow, problems } = load(
    '{url: "http://x.test", method: POST, multipart: {title: Holiday, photo: {file: photo.png}}}',
  );
  assert.deepEqual(problems, []);
  const [title, photo] = flow!.steps[0].request.multipart!;
  assert.equal(title.kind, "field");
  assert.ok(photo.kind === "file");
  assert.deepEqual([photo.contentType, photo.filename], ["image/png", "photo.png"]);
});

Deno.test("multipart mistakes: a list in a list, a missing file (in a list too), a part without file", () => {
  const codes = (multipart: string) =>
    load(`{url: "http://x.test", method: POST, multipart: ${multipart}}`).problems.map((p) =>
      p.code
    );
  assert.deepEqual(codes("{tags: [a, {file: x.png}]}"), ["file-read"]);
  assert.deepEqual(codes("{tags: [[a]]}"), ["wrong-type"]);
  assert.deepEqual(codes("{photo: {file: gone.png}}"), ["file-read"]);
  assert.deepEqual(codes("{photo: {filename: a.png}}"), ["missing-key"]);
  assert.deepEqual(codes("[a]"), ["wrong-type"]);
});

Deno.test("a multipart list repeats a text field, one part per value in order", () => {
  const { flow, problems } = load(
    '{url: "http://x.test", method: POST, multipart: {active: ["off", "on"], n: 1}}',
  );
  assert.deepEqual(problems, []);
  const parts = flow?.steps[0].request.multipart ?? [];
  assert.deepEqual(parts.map((p) => [p.name, p.kind]), [
    ["active", "field"],
    ["active", "field"],
    ["n", "field"],
  ]);
});

Deno.test("a multipart list repeats a file too (<input type=file multiple>), each item a part as a lone one is", () => {
  const { flow, problems } = load(
    '{url: "http://x.test", method: POST, multipart: {"files[]": [{file: photo.png}, {file: photo.png, filename: b.png}, {content: hi, filename: c.txt}]}}',
  );
  assert.deepEqual(problems, []);
  const parts = flow?.steps[0].request.multipart ?? [];
  assert.deepEqual(parts.map((p) => [p.name, p.kind, "filename" in p ? p.filename : undefined]), [
    ["files[]", "file", "photo.png"],
    ["files[]", "file", "b.png"],
    ["files[]", "content", "c.txt"],
  ]);
});

Deno.test("one body per request; form is URL-encoded pairs", () => {
  const two = load('{url: "http://x.test", method: POST, body: {a: 1}, form: {b: 2}}').problems;
  assert.equal(two[0].code, "conflicting-keys");
  const { flow } = load('{url: "http://x.test", method: POST, form: {q: [a, b]}}');
  assert.equal(flow?.steps[0].request.form?.[0][0], "q");
});
