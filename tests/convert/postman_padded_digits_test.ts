/**
 * A code of digits a script pads to its length, as order and booking collections make a
 * reference: `String(Math.floor(Math.random() * 10000)).padStart(4, '0')` (Newman 6.2.2 sent
 * `7936`; one run in ten it is `0…`). The number was a made value but `padStart` of it was not
 * read, so the line was named and `{{code}}` sent as written. Now `padStart(n, "0")` of made
 * digits (`${RANDOM.DIGITS_k}`, k up to n) is text of n digits: the zeros Newman adds before a
 * shorter number, then the digits (`00${RANDOM.DIGITS_4}` for six), text Newman could have sent.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runConverted, withBodySink } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

Deno.test("postman padStart: made digits padded with zeros are digits of that length", async () => {
  await withBodySink(async (base, seen, dir) => {
    const { files } = convertPostman(JSON.stringify({
      info: { name: "Codes", schema: V21 },
      item: [{
        name: "Order",
        event: [{
          listen: "prerequest",
          script: {
            exec: [
              "pm.environment.set('code', String(Math.floor(Math.random() * 10000)).padStart(4, '0'));",
              "const n = Math.floor(Math.random() * 10000);",
              "pm.environment.set('ref', n.toString().padStart(6, '0'));",
            ],
          },
        }],
        request: {
          method: "POST",
          url: `${base}/order`,
          header: [{ key: "Content-Type", value: "application/json" }],
          body: { mode: "raw", raw: '{"code": "{{code}}", "ref": "{{ref}}"}' },
        },
      }],
    }));
    const { run, flow } = await runConverted(files, dir);
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    assert.doesNotMatch(flow.text, /# untranslated/, flow.text);
    const [sent] = seen;
    assert.match(String(sent.code), /^\d{4}$/, JSON.stringify(sent));
    assert.match(String(sent.ref), /^00\d{4}$/, JSON.stringify(sent));
  });
});
