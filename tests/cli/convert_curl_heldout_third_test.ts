/**
 * The third held-out round of `convert curl` (tests/fixtures/curl/README.md):
 * `heldout_third.sh`, written from Elasticsearch's search-template docs and
 * Datadog's metrics docs after the converter was done, is sent by bash and
 * the real curl and by the converted flow at one local server, and the
 * requests compared field by field. Elasticsearch's Mustache placeholders
 * (`"{{query_string}}"`) made a flow `flowrun validate` refused.
 */
import assert from "node:assert/strict";
import {
  compareAll,
  convertAndRun,
  pointAt,
  sendWithCurl,
  withWire,
} from "../support/curl_wire.ts";
import { hasCurl } from "../support/has_curl.ts";
import { runCli } from "../support/cli.ts";

const FILE = "heldout_third.sh";
const HOSTS = /https:\/\/(api|app)\.datadoghq\.com|localhost:9200/g;

Deno.test({
  name: "convert curl: the third held-out round sends what curl sends, and validates",
  ignore: !hasCurl,
  fn: () =>
    withWire(async (wire, dir) => {
      await pointAt(wire, dir, FILE, HOSTS);
      const env = { DD_API_KEY: "dd-fixture0", currenttime: "1700000000" };
      const sent = await sendWithCurl(wire, dir, FILE, env);
      const flow = await convertAndRun(wire, dir, FILE, env);
      assert.match(flow.summary, /^Converted 4 curl commands into 4 steps\./);
      assert.match(flow.yaml, /message: \$\{vars\.lbrace\}\{query_string\}\}/);
      assert.match(flow.yaml, /- name: series$/m);
      assert.ok(!flow.yaml.includes("dd-fixture0"));
      await compareAll(sent, flow, FILE);
      const checked = await runCli(["validate", `${FILE}.yaml`], {
        cwd: dir,
        env,
      });
      assert.equal(checked.code, 0, checked.stdout + checked.stderr);
    }),
});
