/**
 * `convertCurl`: a curl command inside a command substitution is a request
 * the text sends. Netdata's docs (its shell exporter) print
 * `eval "$(curl -s 'http://localhost:19999/api/v1/allmetrics')"`: the whole
 * line was skipped as `eval`, and the example sent nothing. However the
 * substitution is written (`"$(…)"`, `$(…)` bare, after `NAME=`, backticks,
 * inside another curl's header, spread over lines with `\`, piped into
 * `jq`), the curl inside is a step, in the order the shell runs it, and what
 * holds its output says it is not carried. `$((…))` is arithmetic, and a
 * substitution of another program (`$(cat token.txt)`) stays text.
 */
import assert from "node:assert/strict";
import { convertCurl, formatCurlSummary } from "../../lib/convert/curl.ts";

const URL = "http://localhost:19999/api/v1/allmetrics";

Deno.test("a curl inside a command substitution is a step, however the substitution is written", () => {
  const cases = [
    `eval "$(curl -s '${URL}')"`,
    `eval $(curl -s '${URL}')`,
    `METRICS=$(curl -s ${URL})`,
    `METRICS="$(curl -s "${URL}" | grep CPU)"`,
    "eval `curl -s " + URL + "`",
    `export METRICS=$(curl -s \\\n  '${URL}')`,
    `echo "$( curl -s '${URL}' )" > metrics.sh`,
  ];
  for (const text of cases) {
    const { yaml, summary } = convertCurl(`${text}\n`);
    assert.equal(summary.steps, 1, `${text}\n${yaml}`);
    assert.match(yaml, /url: \$\{vars\.base_url\}\/api\/v1\/allmetrics\n/, `${text}\n${yaml}`);
    assert.doesNotMatch(formatCurlSummary(summary), /is not run; it is kept as text/, text);
  }
});

Deno.test("substituted commands are steps in the order the shell runs them", () => {
  const text = [
    "# source the metrics",
    `eval "$(curl -s '${URL}')"`,
    `set | grep "^NETDATA_SYSTEM_CPU"`,
    "NETDATA_SYSTEM_CPU_GUEST=0",
    `time curl -s 'http://localhost:19999/api/v1/info' >/dev/null`,
    `TOKEN=$(curl -s -X POST http://localhost:19999/api/login -d 'user=ann&password=s3cr3t-pw' | jq -r .token)`,
    `curl -H "X-Run: $(curl -s http://localhost:19999/api/v1/run)" http://localhost:19999/api/v1/charts`,
  ].join("\n");
  const { yaml, summary } = convertCurl(text);
  const urls = [...yaml.matchAll(/^ {6}url: \$\{vars\.base_url\}(\S+)$/gm)].map((m) => m[1]);
  assert.deepEqual(urls, [
    "/api/v1/allmetrics",
    "/api/v1/info",
    "/api/login",
    "/api/v1/run",
    "/api/v1/charts",
  ], yaml);
  assert.ok(!yaml.includes("s3cr3t-pw"), yaml);
  // The header that held the inner command's output says it is not carried.
  assert.match(formatCurlSummary(summary), /line 7.*output of the curl command/s, yaml);
});

Deno.test("arithmetic and substitutions of other programs stay as they were", () => {
  const { yaml, summary } = convertCurl(
    `curl -H "Authorization: Bearer $(cat token.txt)" "http://localhost:19999/api/v1/x?n=$((1+2))"\n`,
  );
  assert.equal(summary.steps, 1, yaml);
  assert.match(formatCurlSummary(summary), /is not run; it is kept as text/);
  // Quoted single quotes hold no substitution: `'$(curl …)'` is a word.
  const quoted = convertCurl(`curl -d '$(curl -s ${URL})' http://localhost:19999/api/v1/echo\n`);
  assert.equal(quoted.summary.steps, 1, quoted.yaml);
});

Deno.test("an unquoted substitution of another program stays inside its word", () => {
  // A push gateway's README ends a URL with `$(echo -n '/var/tmp' | base64url)`: split at its
  // spaces, `-n` was an option, `'/var/tmp'` a second URL, and a step went to http://var/tmp.
  // The README's own pipeline is run when converting (curl_computed_test.ts); one of a program
  // the converter does not run stays text, inside its word all the same.
  const { yaml, summary } = convertCurl(
    `echo 'm{a="b"} 3.14' | curl --data-binary @- http://localhost:9091/metrics/job/j/path@base64/$(echo -n '/var/tmp' | base64url)\n` +
      `curl "http://localhost:9091/x/\${DIR:-a b}/y"\n` +
      `curl -X PUT http://localhost:9091/metrics/job/j/path@base64/$(echo -n '/var/tmp' | b64enc --url)\n`,
  );
  assert.equal(summary.steps, 3, yaml);
  assert.ok(!yaml.includes("http://var"), yaml);
  assert.deepEqual(summary.ignored, [], yaml);
  assert.ok(yaml.includes("/path@base64/L3Zhci90bXA=\n"), yaml);
  assert.match(
    formatCurlSummary(summary),
    /\$\(echo -n '\/var\/tmp' \| b64enc --url\).*kept as text/,
  );
});
