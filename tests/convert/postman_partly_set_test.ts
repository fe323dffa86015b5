/**
 * A login script that sets `token` from the body when it has one and, under
 * `if (!pm.environment.get('token'))`, cuts it from the `auth_token` cookie
 * with a regular expression under another prefix (`'Token ' + m[1]`, which
 * flowrun cannot pair with the body's `'Bearer ' + j.token`; the same prefix is
 * one capture with a fallback: postman_token_fallback_test.ts): the first set
 * is translated, the second is not.
 * The summary said nothing, though the later requests that send `{{token}}`
 * read only the body's value; it now names the variable as possibly broken and
 * those requests, as it does for a set not translated at all.
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

function collection(login: string[]) {
  const test = (exec: string[]) => [{ listen: "test", script: { exec } }];
  const post = (url: string, header: { key: string; value: string }[] = []) => ({
    method: "POST",
    url: `http://127.0.0.1:9/${url}`,
    header,
  });
  const auth = [{ key: "Authorization", value: "{{token}}" }];
  return JSON.stringify({
    info: { name: "Partly", schema: V21 },
    variable: [{ key: "token", value: "" }],
    item: [
      { name: "Login", event: test(login), request: post("login") },
      { name: "Create title", request: post("titles", auth) },
      { name: "Borrow", request: post("borrowings", auth) },
    ],
  });
}

const BODY_SET = [
  "try {",
  "  var j = pm.response.json();",
  "  if (j && j.token) pm.environment.set('token', 'Bearer ' + j.token);",
  "} catch (e) {}",
];
const COOKIE_SET = [
  "if (!pm.environment.get('token')) {",
  "  var sc = pm.response.headers.get('set-cookie') || pm.response.headers.get('Set-Cookie');",
  "  if (sc) {",
  "    var m = sc.match(/auth_token=([^;]+)/);",
  "    if (m && m[1]) pm.environment.set('token', 'Token ' + m[1]);",
  "  }",
  "}",
];

Deno.test("postman partly set: a variable set both in a translated way and in one not translated is named, with its readers", () => {
  const { summary } = convertPostman(collection([...BODY_SET, ...COOKIE_SET]));
  const text = formatPostmanSummary(summary, "out");
  const line = text.split("\n").find((l) => l.includes("{{token}}"));
  assert.ok(line, text);
  assert.match(line, /Login/);
  assert.match(line, /Create title, Borrow/);
  assert.match(line, /may not read/);
});

Deno.test("postman partly set: a set wholly translated names nothing", () => {
  const { summary } = convertPostman(collection(BODY_SET));
  const text = formatPostmanSummary(summary, "out");
  assert.ok(!text.includes("{{token}}"), text);
});
