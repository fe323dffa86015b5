/**
 * Text a script works out from a variable the collection's files give
 * (`code.charAt(code.length - 1) + 1`, `code.slice(0, 3).toUpperCase()`) is worked out when
 * converting, as Newman works it out from the same files, and the flow var holds the result. A
 * user who then runs with `--var code=…` changes `code` but not what was worked out from it, and
 * nothing said so. The summary now names each such value, the variables it came from and the
 * request whose script sets it, and says to convert again with the new value in the files.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { withBodySink } from "../support/postman_run.ts";
import { jsonPoster } from "../support/postman_items.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

function collection(base: string) {
  const post = jsonPoster("{{base}}");
  return {
    info: { name: "Derived var", schema: V21 },
    variable: [{ key: "base", value: base }, { key: "code", value: "abc123" }],
    item: [
      post(
        "Redeem",
        "/redeem",
        '{"code": "{{code}}", "next": "{{next}}", "prefix": "{{prefix}}"}',
        [{
          listen: "prerequest",
          script: {
            exec: [
              "const code = pm.collectionVariables.get('code');",
              "pm.collectionVariables.set('next', code.charAt(code.length - 1) + 1);",
              "pm.collectionVariables.set('prefix', code.slice(0, 3).toUpperCase());",
              "pm.collectionVariables.set('plain', 'kept');",
            ],
          },
        }],
      ),
    ],
  };
}

Deno.test("postman derived var: the summary names text worked out from the files, which --var does not reach", () =>
  withBodySink(async (base, seen, dir) => {
    await Deno.writeTextFile(`${dir}/c.json`, JSON.stringify(collection(base)));
    const converted = await runCli(["convert", "postman", `${dir}/c.json`, "-o", `${dir}/flows`]);
    const summary = converted.stdout + converted.stderr;
    assert.equal(converted.code, 0, summary);
    const named = summary.split("\n").filter((l) => l.startsWith("Worked out when converting"));
    const said = (name: string) =>
      `Worked out when converting: the script of Redeem sets {{${name}}} from {{code}} as the files give it, and the flow sends that text; --var code=… given when running does not change it: convert again with the new value in the files.`;
    assert.deepEqual(named, [said("next"), said("prefix")], summary);
    // As it says: run as printed with --var code=…, the source changes and what came from it not.
    const line = summary.match(/^Run: flowrun (.*)$/m)![1].split(" ");
    const run = await runCli([...line, "--var", "code=xyz789"]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual(seen, [{ code: "xyz789", next: "31", prefix: "ABC" }]);
  }));
