/**
 * Upper-case hex a script makes, proven against Newman itself: a pre-request script makes a
 * reference with `Math.random().toString(16).substring(2, 10).toUpperCase()` (Newman 6.2.2 sent
 * `47B62DFD`) and upper-cases a hex helper's text (`hex(6).toUpperCase()`), as collections make
 * order references and ids without `crypto`; the server takes `0`–`9` and `A`–`F` only, as a
 * validator of such references does. flowrun named both variables in the summary and sent
 * `{{ref}}` as written, which the server refused. Now each is `${RANDOM.DIGITS_n}`, digits of the
 * same length: digits are upper-case hex, so the text is one the script could have made, as a
 * helper over `"0123456789ABCDEF"` already gave. Longer than the made digits' bound (15), the
 * value stays named.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { bodyJudge, newmanThenFlow } from "../support/newman_then_flow.ts";
import { jsonPoster } from "../support/postman_items.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

const SCRIPT = [
  "function hex(size) {",
  "  var chars = '0123456789abcdef', made = '';",
  "  for (var i = 0; i < size; i++) made += chars.charAt(Math.floor(Math.random() * 16));",
  "  return made;",
  "}",
  "pm.collectionVariables.set('ref', Math.random().toString(16).substring(2, 10).toUpperCase());",
  "pm.collectionVariables.set('cut', Math.random().toString(16).slice(2, 8).toUpperCase());",
  "pm.collectionVariables.set('id', hex(6).toUpperCase());",
];

const BODY = '{"ref": "{{ref}}", "cut": "{{cut}}", "id": "{{id}}"}';

/** One order that expects 201, and a second one sending the same references. */
function collection(base: string) {
  const post = jsonPoster("{{baseUrl}}");
  const created = {
    listen: "test",
    script: { exec: ["pm.test('created', () => pm.response.to.have.status(201));"] },
  };
  return {
    info: { name: "Upper hex", schema: V21 },
    variable: [{ key: "baseUrl", value: base }],
    item: [
      post("Order", "/order", BODY, [{ listen: "prerequest", script: { exec: SCRIPT } }, created]),
      post("Again", "/order", BODY, [created]),
    ],
  };
}

/** Keeps every body; 201 to the shapes Newman sends, else 400. */
const validator = () =>
  bodyJudge((b) =>
    /^[0-9A-F]{8}$/.test(String(b.ref)) && /^[0-9A-F]{6}$/.test(String(b.cut)) &&
    /^[0-9A-F]{6}$/.test(String(b.id))
  );

Deno.test("postman upper hex: upper-cased hex is sent as text Newman could send", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-upper-hex-" });
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
    assert.equal(counts.failedAssertions, 0, JSON.stringify({ counts, newman }));
    assert.deepEqual(newmanAgain, newman);
    // The flow's: text of the script's lengths that the server takes, one value for both.
    assert.match(String(flow.ref), /^[0-9]{8}$/, JSON.stringify(flow));
    assert.match(String(flow.cut), /^[0-9]{6}$/, JSON.stringify(flow));
    assert.match(String(flow.id), /^[0-9]{6}$/, JSON.stringify(flow));
    assert.equal(typeof flow.ref, "string");
    assert.deepEqual(flowAgain, flow);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("postman upper hex: longer than made digits go, the value stays named", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-upper-hex-" });
  try {
    const file = `${dir}/long.json`;
    const post = jsonPoster("http://127.0.0.1:9");
    const exec = SCRIPT.slice(0, 5).concat("pm.variables.set('h', hex(32).toUpperCase());");
    await Deno.writeTextFile(
      file,
      JSON.stringify({
        info: { name: "Long hex", schema: V21 },
        item: [post("Send", "/h", '{"h": "{{h}}"}', [{ listen: "prerequest", script: { exec } }])],
      }),
    );
    const converted = await runCli(["convert", "postman", file, "-o", `${dir}/flows`]);
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(converted.stdout + converted.stderr, /--var h=…/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
