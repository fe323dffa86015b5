/**
 * `convertCurl`: docs sign a user up and then log in with the password the
 * sign-up chose, typed twice (Directus's "Authenticate a User": `/register`
 * then `/auth/login`, both `"password": "d1r3ctu5"`). The flow asked for
 * `REGISTER_PASSWORD` and `LOGIN_PASSWORD`: two variables for what the
 * commands send as one value. A credential the commands type the same in
 * two places is one variable, the first; different ones stay apart.
 * Commands written here.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

const send = (path: string, password: string) =>
  `curl --request POST --header 'Content-Type: application/json' \\
  --data '{ "email": "hello@example.com", "password": "${password}" }' \\
  --url 'http://localhost:8055/${path}'`;

Deno.test("one password typed into a sign-up and a login is one variable", () => {
  const { yaml, summary } = convertCurl(
    `${send("register", "d1r3ctu5")}\n\n${send("auth/login", "d1r3ctu5")}\n`,
  );
  assert.deepEqual(summary.env, ["REGISTER_PASSWORD"], yaml);
  assert.equal(yaml.match(/password: \$\{ENV\.REGISTER_PASSWORD\}/g)?.length, 2, yaml);
  // The same password in a form and in -u is one too.
  const form = convertCurl(
    `curl -d 'username=ann&password=s3cr3t-pw' http://localhost:8055/login\ncurl -u ann:s3cr3t-pw http://localhost:8055/me\n`,
  );
  assert.deepEqual(form.summary.env, ["LOGIN_PASSWORD"], form.yaml);
});

Deno.test("two passwords stay two variables", () => {
  const { summary } = convertCurl(
    `${send("register", "d1r3ctu5")}\n\n${send("auth/login", "other-pw-2")}\n`,
  );
  assert.deepEqual(summary.env, ["REGISTER_PASSWORD", "LOGIN_PASSWORD"]);
});
