/**
 * A script line Newman's own sandbox cannot run: its `_` is lodash 3.10.2, where
 * `_.sampleSize` is no function, and it has no `crypto` global. Newman 6.2.2 stops such a
 * pre-request script with a TypeError or a ReferenceError and still sends the request, with the
 * variable unset: `{"pick": "{{pick}}", "id": "{{id}}"}` reached the server as written. The flow
 * sends the same, but the summary said "Postman sends what the script sets", pointing the user
 * at a value Newman never made. Now it says the sandbox lacks the call and Newman sends the
 * placeholder as written too; `require('lodash').sampleSize`, which works there, keeps the
 * usual wording.
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";
import { runConverted, withBodySink } from "../support/postman_run.ts";

const V21 = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";

Deno.test("postman: a call Newman's sandbox lacks is said so, and the request is Newman's", async () => {
  await withBodySink(async (base, seen, dir) => {
    const { files, summary } = convertPostman(JSON.stringify({
      info: { name: "Picks", schema: V21 },
      item: [{
        name: "Pick",
        event: [{
          listen: "prerequest",
          script: {
            exec: [
              "pm.environment.set('pick', _.sampleSize(['a', 'b', 'c'], 2).join(','));",
              "pm.environment.set('id', crypto.randomUUID());",
              "const lodash = require('lodash');",
              "pm.environment.set('works', lodash.sampleSize(['a', 'b'], 1)[0]);",
            ],
          },
        }],
        request: {
          method: "POST",
          url: `${base}/pick`,
          header: [{ key: "Content-Type", value: "application/json" }],
          body: { mode: "raw", raw: '{"pick": "{{pick}}", "id": "{{id}}", "works": "{{works}}"}' },
        },
      }],
    }));
    const said = formatPostmanSummary(summary, dir);
    const line = (name: string) => said.split("\n").find((l) => l.includes(`{{${name}}}`)) ?? "";
    for (const [name, call] of [["pick", "_.sampleSize"], ["id", "crypto.randomUUID"]]) {
      assert.match(
        line(name),
        new RegExp(`Newman's sandbox has no \`${call.replace(".", "\\.")}\``),
        said,
      );
      assert.match(line(name), /sends it as written, as Newman does/, said);
    }
    assert.match(line("works"), /Postman sends what the script sets/, said);
    const { run, flow } = await runConverted(files, dir);
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    // What Newman 6.2.2 sent for the two lines it cannot run.
    assert.equal(seen[0].pick, "{{pick}}");
    assert.equal(seen[0].id, "{{id}}");
  });
});
