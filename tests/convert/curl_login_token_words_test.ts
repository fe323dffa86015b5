/**
 * `convertCurl`: which headers carry a credential, and which placeholders or variables name what a
 * login hands out, was read from letters anywhere in a name (`auth`, `token`, `session`, `key`):
 * an `X-Author` header was a credential header, `$AUTHOR` a token. A login that sent
 * `X-Author: docs` was then taken as signed in already (no login: the user was asked for a token
 * they cannot have before it runs), and a later `X-Author: $AUTHOR` was sent the login's token
 * instead of the author asked. A name now says so by a whole word (split at non-letters and
 * camelCase), a word that is or ends with the marker (`APITOKEN`), never an everyday word that only
 * ends like one (`MONKEY`); real credentials keep working (`X-Auth-Token`, `xc-auth`,
 * `{{authToken}}`, `$ACCESS_TOKEN`, `<your-api-key>`).
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

const LOGIN = (header = "") =>
  `curl -X POST http://HOST/auth/login -H 'Content-Type: application/json'${header} \\\n  -d '{"email": "ann@example.com", "password": "d0cs-pa55"}'`;

const use = (...headers: string[]) =>
  `curl http://HOST/items/articles ${headers.map((h) => `-H "${h}"`).join(" ")}`;

const TOKEN_REF = /Bearer \$\{steps\.login\.capture\.\w+\}/;

Deno.test("a login that sends a header named with an everyday word is still a login", () => {
  for (
    const h of ["X-Author: docs", "X-Authority: docs", "X-Tokenizer: words", "X-Authored-By: docs"]
  ) {
    const { yaml, summary } = convertCurl(
      `${LOGIN(` -H "${h}"`)}\n\n${use("Authorization: Bearer <token>")}\n`,
    );
    assert.deepEqual(summary.env, ["LOGIN_PASSWORD"], `${h}\n${yaml}`);
    assert.match(yaml, TOKEN_REF, `${h}\n${yaml}`);
  }
});

Deno.test("a variable named with an everyday word is asked, never sent the login's token", () => {
  const cases: [string, string][] = [
    ["X-Author: $AUTHOR", "AUTHOR"],
    ["X-Author-Id: $AUTHOR_ID", "AUTHOR_ID"],
    ["X-Authority: $AUTHORITY", "AUTHORITY"],
  ];
  for (const [h, name] of cases) {
    const { yaml, summary } = convertCurl(
      `${LOGIN()}\n\n${use("Authorization: Bearer <token>", h)}\n`,
    );
    assert.deepEqual(summary.env, ["LOGIN_PASSWORD", name], `${h}\n${yaml}`);
    assert.match(yaml, new RegExp(`: \\$\\{ENV\\.${name}\\}`), `${h}\n${yaml}`);
    assert.match(yaml, TOKEN_REF, yaml);
  }
});

Deno.test("a credential named by a whole word is still the login's token or the user's key", () => {
  for (
    const h of [
      "X-Auth-Token: $TOKEN",
      "xc-auth: <token>",
      "X-Access-Token: {{authToken}}",
      "Authorization: Bearer $ACCESS_TOKEN",
      "Authorization: Token YOURTOKEN",
    ]
  ) {
    const { yaml, summary } = convertCurl(`${LOGIN()}\n\n${use(h)}\n`);
    assert.deepEqual(summary.env, ["LOGIN_PASSWORD"], `${h}\n${yaml}`);
    assert.match(yaml, /\$\{steps\.login\.capture\.\w+\}/, `${h}\n${yaml}`);
  }
  // A placeholder that says key is the user's own, asked: `<your-api-key>`, `{{apiKey}}`.
  for (const key of ["<your-api-key>", "{{apiKey}}", "<passcode>"]) {
    const { yaml } = convertCurl(`${LOGIN()}\n\n${use(`Authorization: Bearer ${key}`)}\n`);
    assert.doesNotMatch(yaml, /steps\.login\.capture/, `${key}\n${yaml}`);
  }
});
