/**
 * A pre-request script that declares a function making random text (a loop that appends a
 * character picked with `Math.random()` from a literal alphabet, as many times as its argument
 * says) and sets a user name and an e-mail address from it, as sign-up collections make a new
 * account on every run. flowrun could not evaluate the function, so the whole script stayed a
 * comment and the requests sent `{{user}}` and `{{email}}` as written: the sign-up was refused and
 * every request after it failed. Such a call is now a made value of the same length whose
 * characters the alphabet holds (`${RANDOM.HEX_n}` where the alphabet has every hex digit,
 * `${RANDOM.DIGITS_n}` where it has every digit); an alphabet neither covers stays a comment.
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";
import { runConverted, withBodySink } from "../support/postman_run.ts";
import { jsonPoster } from "../support/postman_items.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

/** A sign-up whose pre-request script makes the account's names with `maker`, then a login. */
function collection(base: string, maker: string[], call: string) {
  const post = jsonPoster(base);
  return {
    info: { name: "Sign-up", schema: V21 },
    item: [
      post("Sign up", "/signup", '{"name": "{{user}}", "email": "{{email}}", "code": "{{code}}"}', [
        {
          listen: "prerequest",
          script: {
            exec: [
              ...maker,
              `var part = ${call};`,
              "pm.collectionVariables.set('user', 'u_' + part);",
              "pm.collectionVariables.set('email', `${part}.${Date.now()}@example.test`);",
              "pm.collectionVariables.set('code', pin(4));",
            ],
          },
        },
      ]),
      post("Log in", "/login", '{"email": "{{email}}"}'),
    ],
  };
}

/** Two ways collections write it: a `for` loop with `charAt`, a `while` loop with an index. */
const FOR_LOOP = [
  "function randomText(size) {",
  "  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789';",
  "  let out = '';",
  "  for (let i = 0; i < size; i++) {",
  "    out += alphabet.charAt(Math.floor(Math.random() * alphabet.length));",
  "  }",
  "  return out;",
  "}",
  "function pin(n) {",
  "  var digits = '0123456789', made = '';",
  "  var k = 0;",
  "  while (k < n) { made += digits[Math.floor(Math.random() * 10)]; k++; }",
  "  return made;",
  "}",
];

Deno.test("postman random text: a name a script's own function makes at random is sent", () =>
  withBodySink(async (base, seen, dir) => {
    const { files, summary } = convertPostman(
      JSON.stringify(collection(base, FOR_LOOP, "randomText(6)")),
    );
    const text = formatPostmanSummary(summary, dir);
    assert.doesNotMatch(text, /cannot express/, text);
    const { run, flow } = await runConverted(files, dir);
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    const [signUp, login] = seen;
    // Six characters the alphabet holds, the same address at the login, a four-digit code.
    assert.match(signUp.name, /^u_[a-z0-9]{6}$/, JSON.stringify(seen));
    assert.match(signUp.email, /^[a-z0-9]{6}\.\d{13}@example\.test$/, JSON.stringify(seen));
    // Text, as the script's function returns it, never the number its digits spell.
    assert.equal(typeof signUp.code, "string", JSON.stringify(seen));
    assert.match(signUp.code, /^\d{4}$/, JSON.stringify(seen));
    assert.equal(login.email, signUp.email);
  }));

Deno.test("postman random text: an alphabet no made value keeps to stays a comment, named", () => {
  const upper = FOR_LOOP.map((l) => l.replace("abcdefghijklmnopqrstuvwxyz0123456789", "ABCXYZ"));
  const { files, summary } = convertPostman(
    JSON.stringify(collection("http://127.0.0.1:9", upper, "randomText(6)")),
  );
  const text = formatPostmanSummary(summary, "out");
  assert.match(text, /sets \{\{user\}\} in a way flowrun cannot express/, text);
  assert.doesNotMatch(files[0].text, /RANDOM\.HEX/, files[0].text);
  // A length known only when the script runs is no made value either.
  const unknown = convertPostman(
    JSON.stringify(collection("http://127.0.0.1:9", FOR_LOOP, "randomText(pm.info.iteration)")),
  );
  assert.match(formatPostmanSummary(unknown.summary, "out"), /sets \{\{user\}\} in a way/);
});
