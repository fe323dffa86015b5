/**
 * `convert curl`: a server's address written as a placeholder host between
 * a scheme and a port. A time-series database's docs print
 * `curl http://<victoriametrics-addr>:8428/api/v1/export -d 'match[]=…'`
 * and, for its cluster, `http://<vmselect>:8481/select/0/…`: no http(s)
 * URL as written, so every such command was skipped ("is not an http(s)
 * URL"). The placeholder origin is a base URL to set, as `<name>/path` is
 * (curl_placeholders_test.ts): one variable per name, named after it, the
 * summary showing how the docs wrote it. Run against a server the test
 * starts that keeps what it receives.
 */
import assert from "node:assert/strict";
import { convertCurl, formatCurlSummary } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

Deno.test("a placeholder host with its scheme and port is a base URL to set", () => {
  const cases: [string, string][] = [
    ["http://<victoriametrics-addr>:8428/api/v1/export", "VICTORIAMETRICS_ADDR"],
    ["http://<vmselect>:8481/select/0/prometheus/api/v1/labels", "VMSELECT"],
    ["https://<your-host>/api/v1/labels?limit=5", "YOUR_HOST"],
    ["http://<host>:<port>/api/v1/labels", "HOST"],
  ];
  for (const [url, name] of cases) {
    const { yaml, summary } = convertCurl(`curl ${url} -d 'match[]=up'\n`);
    assert.equal(summary.steps, 1, `${url}\n${yaml}`);
    assert.deepEqual(summary.env, [name], yaml);
    assert.match(formatCurlSummary(summary), /<[\w-]+>/, url);
  }
  // Two commands with one placeholder ask one variable.
  const two = convertCurl(
    "curl http://<vmselect>:8481/select/0/api/v1/labels\ncurl 'http://<vmselect>:8481/select/0/api/v1/series?match[]=up'\n",
  );
  assert.deepEqual(two.summary.env, ["VMSELECT"]);
});

Deno.test("the command reaches the server the variable names", async () => {
  const got: string[] = [];
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (req) => {
      // A form's `[]` may come percent-encoded: the same fields to any form parser.
      const form = [...new URLSearchParams(await req.text())].map(([k, v]) => `${k}=${v}`);
      got.push(`${req.method} ${new URL(req.url).pathname} ${form.join("&")}`);
      return Response.json({ status: "success" });
    },
  );
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const docs =
    "```console\ncurl http://<victoriametrics-addr>:8428/api/v1/export -d 'match[]=up' -d 'start=1654543486'\n```\n";
  await withCurlFlow(docs, async ({ converted, runFlow }) => {
    assert.match(converted.stderr, /Set before running: VICTORIAMETRICS_ADDR\./, converted.stderr);
    const run = await runFlow({ VICTORIAMETRICS_ADDR: origin });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual(got, ["POST /api/v1/export match[]=up&start=1654543486"]);
  }, { docs: "docs.md" });
});
