/**
 * A local a statement left untranslated changes: `var chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', s =
 * ''; for (…) s += chars.charAt(…); pm.environment.set('code', s)`. Newman 6.2.2 sent six
 * capitals (`NFDSOY`); the loop stayed a comment, but `s` kept the empty text it was declared
 * with, so the flow sent `""` and the summary said nothing: a value dropped silently. Now a local
 * that an untranslated statement assigns is unknown after it, so the variable set from it is
 * named in the summary, with a `--var` to give it, and sent as written.
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

Deno.test("postman: a local an untranslated loop changes is unknown, and named", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const { files, summary } = convertPostman(JSON.stringify({
      info: { name: "Codes", schema: V21 },
      item: [{
        name: "Code",
        event: [{
          listen: "prerequest",
          script: {
            exec: [
              "var chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', s = '', n = 0;",
              "for (var i = 0; i < 6; i++) { s += chars.charAt(Math.floor(Math.random() * chars.length)); }",
              "n++;",
              "pm.environment.set('code', s);",
              "pm.environment.set('count', n);",
              "pm.environment.set('kept', chars);",
            ],
          },
        }],
        request: {
          method: "POST",
          url: "http://127.0.0.1:9/code",
          header: [{ key: "Content-Type", value: "application/json" }],
          body: {
            mode: "raw",
            raw: '{"code": "{{code}}", "count": {{count}}, "kept": "{{kept}}"}',
          },
        },
      }],
    }));
    const said = formatPostmanSummary(summary, dir);
    assert.deepEqual(summary.broken?.map((b) => b.name).sort(), ["code", "count"], said);
    assert.match(said, /--var code=…/, said);
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    assert.doesNotMatch(flow.text, /code: ""/, flow.text);
    assert.match(flow.text, /kept: ABCDEFGHIJKLMNOPQRSTUVWXYZ/, flow.text);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
