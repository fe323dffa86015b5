/**
 * A public corpus of HARs, fetched as the `har-examples` npm package (MIT,
 * the request fixtures of ReadMe's httpsnippet: form, JSON, XML, binary,
 * multipart, cookies, query encodings, a full entry): every one converts
 * into a flow that loads with exactly the variables its summary names, or
 * is refused with one plain sentence; never a crash. The project's HAR
 * samples (kept outside the repository) are covered by convert_har_test.ts when present.
 */
import assert from "node:assert/strict";
import examples from "har-examples";
import { convertHar } from "../../lib/convert/har.ts";
import { UsageError } from "../../lib/model/errors.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import "../support/engines.ts";

const entries = Object.entries(examples as Record<string, unknown>);

Deno.test("the har-examples corpus is all there", () => {
  assert.ok(entries.length >= 20, `${entries.length} examples`);
});

for (const [name, har] of entries) {
  Deno.test(`har-examples/${name} converts into a loadable flow or one clear refusal`, () => {
    let result;
    try {
      result = convertHar(JSON.stringify(har));
    } catch (error) {
      assert.ok(error instanceof UsageError, `${name}: ${(error as Error).stack}`);
      // deno-lint-ignore no-control-regex
      assert.doesNotMatch(error.message, /[\u0000-\u001f]/, "one plain line");
      return;
    }
    const env = (v: string) => result.summary.env.includes(v) ? "set" : undefined;
    // Uploads read the files the conversion writes beside the flow.
    const readFile = (path: string) => {
      const file = result.files.find((f) => f.path === path);
      if (!file) return { message: "not written" };
      return {
        bytes: typeof file.text === "string" ? new TextEncoder().encode(file.text) : file.text,
      };
    };
    const { problems } = loadFlow(result.yaml, `${name}.yaml`, { env, readFile });
    assert.deepEqual(problems, [], result.yaml);
    // Recorded credentials never reach the flow.
    const code = result.yaml.split("\n").filter((l) => !/^\s*#/.test(l)).join("\n");
    for (
      const entry of (har as {
        log: { entries: { request: { headers?: { name: string; value: string }[] } }[] };
      }).log.entries
    ) {
      for (const h of entry.request.headers ?? []) {
        if (/^(authorization|cookie|x-api-key)$/i.test(h.name) && h.value.length >= 6) {
          assert.ok(!code.includes(h.value), `${name}: ${h.name} value reached the flow`);
        }
      }
    }
  });
}
