/**
 * The bounds of a document's files, proven with files held in memory (10,000 files on disk
 * would make the test slow, not more real): the count of files and the bytes of them all.
 */
import assert from "node:assert/strict";
import { bundleDocument } from "../../../lib/convert/openapi/bundle.ts";
import { MAX_OPENAPI_BYTES, MAX_OPENAPI_FILES } from "../../../lib/convert/openapi/limits.ts";
import { UsageError } from "../../../lib/model/errors.ts";

const HEAD = "openapi: 3.0.3\ninfo: {title: t, version: '1'}\n";
const encode = (text: string) => new TextEncoder().encode(text);

/** A document whose one operation has a response per file. */
function manyResponses(count: number): (path: string) => Promise<Uint8Array> {
  const main = `${HEAD}paths:\n  /a:\n    get:\n      responses:\n` +
    Array.from({ length: count }, (_, i) => `        'x${i}': {$ref: 'r${i}.yaml'}\n`).join("");
  const response = encode("description: ok\n");
  return (path) => Promise.resolve(path === "/doc/api.yaml" ? encode(main) : response);
}

Deno.test("a document may be made of up to 10,000 files; one more is refused, naming the $ref", async () => {
  const fits = await bundleDocument(
    "/doc/api.yaml",
    manyResponses(MAX_OPENAPI_FILES - 1),
    () => {},
    (f) => f,
  );
  assert.equal(fits.files.length, MAX_OPENAPI_FILES - 1);
  await assert.rejects(
    bundleDocument("/doc/api.yaml", manyResponses(MAX_OPENAPI_FILES), () => {}, (f) => f),
    (error: unknown) =>
      error instanceof UsageError && error.code === "bad-openapi-ref" &&
      /The \$ref "r9999\.yaml" at \/doc\/api\.yaml#\/paths\/~1a\/get\/responses\/x9999 would read more than 10000 files/
        .test(error.message),
  );
});

Deno.test("the files of a document may hold 128 MiB in all, whatever their number", async () => {
  // Each file is JSON: 13 MiB of spaces around an empty object, cheap to parse.
  const big = encode(`${" ".repeat(13 * 1024 * 1024)}{"description": "ok"}`);
  const main = encode(
    `${HEAD}paths:\n  /a:\n    get:\n      responses:\n` +
      Array.from({ length: 12 }, (_, i) => `        'x${i}': {$ref: 'r${i}.json'}\n`).join(""),
  );
  const read = (path: string) => Promise.resolve(path === "/doc/api.yaml" ? main : big);
  const files = Math.floor(MAX_OPENAPI_BYTES / big.length);
  await assert.rejects(
    bundleDocument("/doc/api.yaml", read, () => {}, (f) => f),
    (error: unknown) =>
      error instanceof UsageError &&
      error.message.includes(`The $ref "r${files}.json"`) &&
      error.message.includes("would read more than 128 MiB of files in all"),
  );
});

Deno.test("an operation written as a $ref to another file is put in place, with its tags", async () => {
  const files: Record<string, string> = {
    "/doc/api.yaml":
      `${HEAD}paths:\n  /pets:\n    get: {$ref: 'ops/list.yaml'}\n    post: {$ref: '#/x-ops/create'}\nx-ops:\n  create: {operationId: create, responses: {'201': {description: made}}}\n`,
    "/doc/ops/list.yaml":
      "operationId: list\ntags: [Pets]\nresponses: {'200': {description: ok}}\n",
  };
  const read = (path: string) => Promise.resolve(encode(files[path]));
  const { document } = await bundleDocument("/doc/api.yaml", read, () => {}, (f) => f);
  const item = (document.paths as Record<string, Record<string, Record<string, unknown>>>)["/pets"];
  assert.equal(item.get.operationId, "list");
  assert.deepEqual(item.get.tags, ["Pets"]);
  assert.equal(item.post.operationId, "create");
});

Deno.test("an examples map kept in another file, its entries, or an example that is only a $ref come along; a value is data", async () => {
  const files: Record<string, string> = {
    "/doc/api.yaml": `${HEAD}paths:
  /a:
    get:
      responses:
        '200':
          description: ok
          content:
            application/json:
              examples: {$ref: 'examples.yml#/list'}
        '202':
          description: ok
          content:
            application/json:
              example: {$ref: 'examples.yml#/one/value'}
        '201':
          description: ok
          content:
            application/json:
              examples:
                one: {$ref: 'examples.yml#/one'}
                two: {value: {$ref: not-followed.yaml}}
`,
    "/doc/examples.yml": "list: {first: {value: {items: [1]}}}\none: {value: {id: 7}}\n",
  };
  const read = (path: string) =>
    Promise.resolve(files[path] === undefined ? { why: "no such file" } : encode(files[path]));
  const { document, files: read_ } = await bundleDocument(
    "/doc/api.yaml",
    read,
    () => {},
    (f) => f,
  );
  assert.deepEqual(read_, ["/doc/examples.yml"]);
  const bundled = document["x-bundled"] as Record<string, unknown>;
  const media = (status: string) =>
    // deno-lint-ignore no-explicit-any
    (document.paths as any)["/a"].get.responses[status].content["application/json"];
  assert.deepEqual(media("200").examples, { $ref: "#/x-bundled/examples_list" });
  assert.deepEqual(bundled.examples_list, { first: { value: { items: [1] } } });
  assert.deepEqual(media("201").examples.one, { $ref: "#/x-bundled/examples_one" });
  assert.deepEqual(media("201").examples.two, { value: { $ref: "not-followed.yaml" } });
  assert.deepEqual(media("202").example, { $ref: "#/x-bundled/examples_value" });
  assert.deepEqual(bundled.examples_value, { id: 7 });
});
