/**
 * `convertCurl`: docs print `curl --user "USERNAME:PASSWORD" https://HOSTNAME/…`
 * and tell the reader to swap the capitals for their own (WordPress's REST
 * API handbook). The password became a variable to set, but the user name
 * was sent as the word `USERNAME`: a flow nobody could run without editing
 * it. A user name written as a placeholder (capitals naming what goes there,
 * `<user>`, `YOUR_…`) is a variable to set; a real name is sent as written.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

Deno.test("a placeholder user name is a variable to set", () => {
  for (const user of ["USERNAME", "YOUR_USERNAME", "<user>", "your-email", "EMAIL_ADDRESS"]) {
    const { yaml, summary } = convertCurl(
      `curl --user "${user}:PASSWORD" https://HOSTNAME/wp-json/wp/v2/users?context=edit\n`,
    );
    assert.deepEqual(summary.env, ["BASIC_USER", "BASIC_PASSWORD"], `${user}\n${yaml}`);
    assert.match(yaml, /username: \$\{ENV\.BASIC_USER\}/, yaml);
    assert.match(yaml, /BASIC_USER +the user name of -u, written as a placeholder/, yaml);
  }
});

Deno.test("a user name that is a name is sent as written", () => {
  for (const user of ["admin", "ann.lee", "ADMIN", "editor"]) {
    const { yaml, summary } = convertCurl(`curl -u ${user}:s3cr3t https://a.test/api/me\n`);
    assert.deepEqual(summary.env, ["BASIC_PASSWORD"], `${user}\n${yaml}`);
    assert.ok(yaml.includes(`username: ${user}`), yaml);
  }
});
