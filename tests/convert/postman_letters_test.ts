/**
 * Random text a script makes of letters only, and a variable a script clears, proven against
 * Newman itself. A sign-up's pre-request script makes a nickname with its own function over the
 * 52 letters, keeps `pm.variables.replaceIn('{{$randomFirstName}}')` for two requests, cuts a tag
 * from `Math.random().toString(36)`, and sets a variable the collection gives to `null`; the server
 * takes names of letters only, as sign-up validators do. Newman (6.2, run here) sends letters for
 * both names (`Moriah`), six base-36 characters for the tag, and the text `null` (JSON `null` where
 * the body writes `{{cleared}}` bare) for the cleared variable. flowrun sent the nickname and the
 * tag as written, the first name as `first-name-` and hex, and the collection's old value for the
 * cleared one: the server refused the sign-up. Now the nickname is `${RANDOM.ALPHA_7}`, the first
 * name `Firstname${RANDOM.ALPHA_6}` (letters, a capital first), the tag `${RANDOM.HEX_6}` (hex
 * digits are base-36 digits) and the cleared variable `null`, as Newman sends it.
 */
import assert from "node:assert/strict";
import { bodyJudge, newmanThenFlow } from "../support/newman_then_flow.ts";
import { jsonPoster } from "../support/postman_items.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

const SCRIPT = [
  "function randomName(size) {",
  "  var chars = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz', made = '';",
  "  for (var i = 0; i < size; i++) made += chars.charAt(Math.floor(Math.random() * chars.length));",
  "  return made;",
  "}",
  "pm.collectionVariables.set('nick', randomName(7));",
  "var first = pm.variables.replaceIn('{{$randomFirstName}}');",
  "pm.collectionVariables.set('first', first);",
  "pm.collectionVariables.set('tag', Math.random().toString(36).substring(2, 8));",
  "pm.collectionVariables.set('cleared', null);",
];

/** The sign-up, then a request that sends the kept first name again; each expects 201. */
function collection(base: string) {
  const post = jsonPoster("{{baseUrl}}");
  const created = {
    listen: "test",
    script: { exec: ["pm.test('created', () => pm.response.to.have.status(201));"] },
  };
  return {
    info: { name: "Letters", schema: V21 },
    variable: [{ key: "baseUrl", value: base }, { key: "cleared", value: "old" }],
    item: [
      post(
        "Sign up",
        "/signup",
        '{"nick": "{{nick}}", "first": "{{first}}", "tag": "{{tag}}", "cleared": "{{cleared}}", "bare": {{cleared}}}',
        [{ listen: "prerequest", script: { exec: SCRIPT } }, created],
      ),
      post("Profile", "/profile", '{"first": "{{first}}"}', [created]),
    ],
  };
}

/** Names of letters (a faker name may hold an apostrophe or a space), a tag of letters and digits. */
const accepted = (b: Record<string, unknown>) =>
  /^[A-Za-z][A-Za-z' -]*$/.test(String(b.first)) &&
  (b.nick === undefined || /^[A-Za-z]+$/.test(String(b.nick))) &&
  (b.tag === undefined || /^[a-z0-9]+$/.test(String(b.tag)));

/** Keeps every body; 201 to names of letters, else 400. */
const validator = () => bodyJudge(accepted);

Deno.test("postman letters: letters-only random text and a cleared variable are sent as Newman sends them", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-pm-letters-" });
  const server = validator();
  try {
    // Newman's run, then the conversion's as its summary prints it.
    const { counts } = await newmanThenFlow(dir, collection(server.url), server.url);
    assert.equal(server.seen.length, 4, JSON.stringify(server.seen));
    const [newmanUp, newmanProfile, up, profile] = server.seen;
    // Newman's own: letters, six base-36 characters, the cleared value's text and JSON null.
    assert.deepEqual(counts.failedAssertions, 0, JSON.stringify(counts));
    assert.match(String(newmanUp.nick), /^[A-Za-z]{7}$/);
    assert.match(String(newmanUp.tag), /^[a-z0-9]{6}$/);
    assert.equal(newmanProfile.first, newmanUp.first);
    // The flow's, of the same shapes, the first name one value for both requests.
    assert.match(String(up.nick), /^[a-z]{7}$/, JSON.stringify(up));
    assert.match(String(up.first), /^Firstname[a-z]{6}$/, JSON.stringify(up));
    assert.match(String(up.tag), /^[0-9a-f]{6}$/, JSON.stringify(up));
    assert.equal(profile.first, up.first);
    for (const [key, value] of [["cleared", "null"], ["bare", null]] as const) {
      assert.equal(newmanUp[key], value, key);
      assert.equal(up[key], value, key);
    }
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
