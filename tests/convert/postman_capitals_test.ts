/**
 * Random text a script makes of capitals only, proven against Newman itself. A
 * pre-request script makes a voucher code with its own function over
 * `'ABCDEFGHIJKLMNOPQRSTUVWXYZ'` and a reference with
 * `Math.random().toString(36).substring(2, 8).toUpperCase()`, and upper-cases a
 * letters-only helper's text, and picks capitals with lodash
 * (`_.times(4, () => _.sample(caps)).join('')`); the server takes codes of capitals only, as
 * voucher and coupon validators do. Newman (6.2, run here) sends capitals (and,
 * for the base-36 cut, capitals and digits). flowrun named the variables
 * in the summary and sent `{{code}}` as written, which the server refused. Now
 * each is `${RANDOM.UPPER_n}`, capitals of the same length: text the script
 * could have made. A base-16 cut in upper case (`0`–`9`, `A`–`F`) is digits
 * (`tests/convert/postman_upper_hex_test.ts`).
 */
import assert from "node:assert/strict";
import { bodyJudge, newmanThenFlow } from "../support/newman_then_flow.ts";
import { jsonPoster } from "../support/postman_items.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

const SCRIPT = [
  "function voucher(size) {",
  "  var chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', made = '';",
  "  for (var i = 0; i < size; i++) made += chars.charAt(Math.floor(Math.random() * 26));",
  "  return made;",
  "}",
  "function letters(size) {",
  "  var chars = 'abcdefghijklmnopqrstuvwxyz', made = '';",
  "  for (var i = 0; i < size; i++) made += chars.charAt(Math.floor(Math.random() * chars.length));",
  "  return made;",
  "}",
  "pm.collectionVariables.set('code', voucher(8));",
  "pm.collectionVariables.set('ref', Math.random().toString(36).substring(2, 8).toUpperCase());",
  "pm.collectionVariables.set('shout', letters(5).toUpperCase());",
  "var caps = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';",
  "pm.collectionVariables.set('pick', _.times(4, () => _.sample(caps)).join(''));",
];

/** One redemption that expects 201 and a second one sending the same code. */
function collection(base: string) {
  const post = jsonPoster("{{baseUrl}}");
  const created = {
    listen: "test",
    script: { exec: ["pm.test('created', () => pm.response.to.have.status(201));"] },
  };
  return {
    info: { name: "Capitals", schema: V21 },
    variable: [{ key: "baseUrl", value: base }],
    item: [
      post(
        "Redeem",
        "/redeem",
        '{"code": "{{code}}", "ref": "{{ref}}", "shout": "{{shout}}", "pick": "{{pick}}"}',
        [{ listen: "prerequest", script: { exec: SCRIPT } }, created],
      ),
      post(
        "Again",
        "/redeem",
        '{"code": "{{code}}", "ref": "{{ref}}", "shout": "{{shout}}", "pick": "{{pick}}"}',
        [
          created,
        ],
      ),
    ],
  };
}

/** Keeps every body; 201 to the shapes Newman sends, else 400. */
const validator = () =>
  bodyJudge((b) =>
    /^[A-Z]{8}$/.test(String(b.code)) && /^[A-Z0-9]{6}$/.test(String(b.ref)) &&
    /^[A-Z]{5}$/.test(String(b.shout)) && /^[A-Z]{4}$/.test(String(b.pick))
  );

Deno.test("postman capitals: capitals-only random text is sent as capitals, as Newman sends it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-capitals-" });
  const server = validator();
  try {
    // Newman's run, then the conversion's as its summary prints it.
    const { counts } = await newmanThenFlow(
      dir,
      collection(server.url),
      server.url,
      /cannot express|--var/,
    );
    assert.equal(server.seen.length, 4, JSON.stringify(server.seen));
    const [newman, newmanAgain, flow, flowAgain] = server.seen;
    assert.deepEqual(counts.failedAssertions, 0, JSON.stringify(counts));
    assert.deepEqual(newmanAgain, newman);
    // The flow's: capitals only, of the script's lengths, one value for both requests.
    assert.match(String(flow.code), /^[A-Z]{8}$/, JSON.stringify(flow));
    assert.match(String(flow.ref), /^[A-Z]{6}$/, JSON.stringify(flow));
    assert.match(String(flow.shout), /^[A-Z]{5}$/, JSON.stringify(flow));
    assert.match(String(flow.pick), /^[A-Z]{4}$/, JSON.stringify(flow));
    assert.deepEqual(flowAgain, flow);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
