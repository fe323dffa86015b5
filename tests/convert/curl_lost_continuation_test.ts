/**
 * `convertCurl`: a command whose `\` the docs lost. A database's write guide
 * prints `curl -i -XPOST 'http://localhost:8086/write?db=mydb'` and, on the
 * next line, `--data-binary 'cpu_load_short,host=server01 value=0.64'`; its
 * API reference `curl --request GET "…/api/v2/buckets"` over an indented
 * `-H 'Authorization: …'`. The option line was skipped as a command that is
 * not curl, and the write went out with no body (204: nothing written, the
 * run green). No program is called `--data-binary` or `-H`: a line that
 * starts with one of curl's options, right under a curl command's last
 * line, carries that command on. A blank line between, a line under
 * another program's command, or no option of curl's keeps them apart.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

const WRITE = [
  "The following example writes a point to the mydb database.",
  "",
  "curl -i -XPOST 'http://localhost:8086/write?db=mydb'",
  "--data-binary 'cpu_load_short,host=server01,region=us-west value=0.64 1434055562000000000'",
  "",
  "The following example lists all databases:",
  "",
  'curl --request GET "http://localhost:8086/api/v2/buckets"   ',
  "  -H 'Authorization: Token admin:s3cr3t-pw'",
  "",
].join("\n");

Deno.test("an option line right under a curl command carries it on", () => {
  const { yaml, summary } = convertCurl(WRITE);
  assert.equal(summary.steps, 2, yaml);
  assert.match(
    yaml,
    /body: cpu_load_short,host=server01,region=us-west value=0\.64 1434055562000000000$/m,
    yaml,
  );
  assert.match(yaml, /authorization: Token \$\{ENV\.\w+\}/, yaml);
  assert.ok(!summary.skipped.some((s) => /data-binary|-H/.test(s)), summary.skipped.join("\n"));
  assert.ok(!yaml.includes("s3cr3t-pw"), yaml);
});

Deno.test("a blank line, another program or no curl option keeps the lines apart", () => {
  const apart = [
    "curl http://localhost:8086/ping",
    "",
    "--data-binary 'a value=1'",
    "echo done",
    "--verbose-ish",
    "curl http://localhost:8086/ping",
    "-- a dash in prose",
    "",
  ].join("\n");
  const { yaml, summary } = convertCurl(apart);
  assert.equal(summary.steps, 2, yaml);
  assert.ok(!/body:|form:/.test(yaml), yaml);
});
