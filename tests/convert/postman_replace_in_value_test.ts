/**
 * `pm.variables.replaceIn(x)` of a value that is no text gives the value back: Newman 6.2.2's
 * `replaceIn(Math.floor(Math.random() * 9000))` is a number (its `typeof` `number`), which a
 * booking collection keeps as the price it sends bare (`"totalprice": {{totalPrice}}`) and
 * compares with the price read back. The converter read only text there, so the price stayed
 * a comment, was sent as empty text and its check failed. Now such a value is the value itself
 * (here a made number, `${RANDOM.DIGITS_n}`), sent as a JSON number and checked as one.
 */
import assert from "node:assert/strict";
import { convertPostman } from "../../lib/convert/postman/mod.ts";
import { runConverted, withBodySink } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

Deno.test("postman replaceIn: a value that is no text is that value", async () => {
  await withBodySink(async (base, seen, dir) => {
    const { files } = convertPostman(JSON.stringify({
      info: { name: "Booking", schema: V21 },
      item: [{
        name: "Create Booking",
        event: [{
          listen: "prerequest",
          script: {
            exec: [
              "var totalPrice = pm.variables.replaceIn(Math.floor(Math.random() * 9000))",
              "pm.environment.set('totalPrice', totalPrice);",
              "pm.environment.set('paid', pm.variables.replaceIn(true));",
            ],
          },
        }, {
          listen: "test",
          script: {
            exec: [
              "pm.test('echoed', () => pm.expect(pm.response.json().ok).to.eql(true));",
            ],
          },
        }],
        request: {
          method: "POST",
          url: `${base}/booking`,
          header: [{ key: "Content-Type", value: "application/json" }],
          body: { mode: "raw", raw: '{"totalprice": {{totalPrice}}, "paid": {{paid}}}' },
        },
      }],
    }));
    const { run, flow } = await runConverted(files, dir);
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    assert.doesNotMatch(flow.text, /# untranslated/, flow.text);
    const [sent] = seen as unknown as { totalprice: unknown; paid: unknown }[];
    assert.equal(typeof sent.totalprice, "number", JSON.stringify(sent));
    assert.ok((sent.totalprice as number) >= 0 && (sent.totalprice as number) < 9000);
    assert.equal(sent.paid, true, JSON.stringify(sent));
  });
});
