/**
 * `convert curl`: a form field whose whole value is a docs placeholder. A
 * time-series database's README exports with `-d
 * 'match[]=<timeseries_selector_for_export>' -d 'format=<format>'`: the
 * reader fills them in, the converter sent the words as written (400
 * "cannot parse"). A field of `-d`, `--data…` or `--data-urlencode` (curl's
 * `name=value` pairs, joined by `&`) whose value is `<name>` is a variable
 * to set, one per name, as a `<name>` in the path is; a `<…>` that is not a
 * whole value (XML, `-F 'f=<file'`) stays as written. Run against a server
 * the test starts that keeps what it receives.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const URL = "http://localhost:8428/api/v1/export";

Deno.test("a form value written <name> is a variable to set", () => {
  const cases: [string, string[]][] = [
    [`-d 'match[]=<timeseries_selector_for_export>' -d 'start=1654543486'`, [
      "TIMESERIES_SELECTOR_FOR_EXPORT",
    ]],
    [`-d 'format=<format>&match[]=<selector>'`, ["FORMAT", "SELECTOR"]],
    [`--data-urlencode 'match[]=<selector>' -G`, ["SELECTOR"]],
    [`--data-raw 'format=<format>' -d 'format2=<format>'`, ["FORMAT"]],
  ];
  for (const [options, env] of cases) {
    const { yaml, summary } = convertCurl(`curl ${URL} ${options}\n`);
    assert.equal(summary.steps, 1, yaml);
    assert.deepEqual(summary.env, env, `${options}\n${yaml}`);
    // The header says how the docs wrote each; the steps send the variables.
    const steps = yaml.slice(yaml.indexOf("\nsteps:"));
    assert.ok(!steps.includes("<format>") && !steps.includes("<selector>"), yaml);
  }
});

Deno.test("a <…> that is not a whole form value is sent as written", () => {
  for (const options of [`-d '<q>a</q>'`, `-d 'a=<b>c'`, `-F 'f=<notes.txt'`]) {
    const { summary } = convertCurl(`curl ${URL} ${options}\n`);
    assert.deepEqual(summary.env, [], options);
  }
});

Deno.test("the server receives the value the variable holds", async () => {
  const got: string[] = [];
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    async (req) => {
      const form = [...new URLSearchParams(await req.text())].map(([k, v]) => `${k}=${v}`);
      got.push(form.join("&"));
      return Response.json({});
    },
  );
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const docs =
    `curl ${origin}/api/v1/export -d 'match[]=<timeseries_selector_for_export>' -d 'start=1654543486'\n`;
  await withCurlFlow(docs, async ({ converted, runFlow }) => {
    assert.match(converted.stderr, /Set before running: TIMESERIES_SELECTOR_FOR_EXPORT\./);
    const run = await runFlow({
      BASE_URL: origin,
      TIMESERIES_SELECTOR_FOR_EXPORT: '{__name__!=""}',
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual(got, ['match[]={__name__!=""}&start=1654543486']);
  }, { docs: "docs.md" });
});
