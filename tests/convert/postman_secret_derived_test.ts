/**
 * Text a script derives from a secret (`pw.charAt(pw.length - 1) + 1` of a password the auth
 * reads) has no value when converting: the secret is asked for when running and never written
 * into a file, so the set is named and the request sends `{{newPassword}}` as written, where
 * Newman sends what the script makes (`"!1"` for `Pa55word!`). The summary said so, but not how
 * to send Newman's value: each variable sent as written is a flow var, and the summary now says
 * `--var newPassword=…` sends one. Run as printed with it, the server gets Newman's value.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { withBodySink } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

/** A password change with a Basic auth (so `password` is a secret) deriving the new one. */
function collection(base: string) {
  return {
    info: { name: "Secret derived", schema: V21 },
    variable: [{ key: "base", value: base }, { key: "password", value: "Pa55word!" }],
    item: [{
      name: "Change password",
      event: [{
        listen: "prerequest",
        script: {
          exec: [
            "const pw = pm.collectionVariables.get('password');",
            "pm.collectionVariables.set('newPassword', pw.charAt(pw.length - 1) + 1);",
          ],
        },
      }],
      request: {
        method: "POST",
        url: "{{base}}/password",
        auth: {
          type: "basic",
          basic: [{ key: "username", value: "ada" }, { key: "password", value: "{{password}}" }],
        },
        header: [{ key: "Content-Type", value: "application/json" }],
        body: { mode: "raw", raw: '{"newPassword": "{{newPassword}}"}' },
      },
    }],
  };
}

Deno.test("postman secret derived: the summary says how to give what a script derives from a secret", () =>
  withBodySink(async (base, seen, dir) => {
    await Deno.writeTextFile(`${dir}/c.json`, JSON.stringify(collection(base)));
    const converted = await runCli(["convert", "postman", `${dir}/c.json`, "-o", `${dir}/flows`]);
    const summary = converted.stdout + converted.stderr;
    assert.equal(converted.code, 0, summary);
    assert.match(summary, /sets \{\{newPassword\}\} in a way flowrun cannot express/, summary);
    assert.match(summary, /^A value for it can be given when running, .*: --var newPassword=…\.$/m);
    assert.doesNotMatch(summary, /Pa55word/);
    const line = summary.match(/^Run: flowrun (.*)$/m)![1].split(" ");
    const env = { PASSWORD: "Pa55word!" };
    for (const extra of [[], ["--var", "newPassword=!1"]]) {
      const run = await runCli([...line, ...extra], { env });
      assert.equal(run.code, 0, run.stdout + run.stderr);
    }
    // As written without it, as the summary says; Newman's value with it.
    assert.deepEqual(seen, [{ newPassword: "{{newPassword}}" }, { newPassword: "!1" }]);
  }));
