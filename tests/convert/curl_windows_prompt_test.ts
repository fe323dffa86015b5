/**
 * `convertCurl`: Windows prompts. RabbitMQ's management API page gives each
 * example for Windows (`C:\> curl … ^`, cmd.exe's line continuation) and for
 * Unix (`$ curl … \`); the Windows lines were listed as skipped commands
 * named `C:>`, and each `^`-continued line as another (`-XPUT`). A Windows
 * prompt is a prompt: text typed only at Windows prompts is read as cmd.exe
 * (`C:\>`) or PowerShell (`PS C:\>`) reads it, continuations joined; beside
 * the same commands for Unix, each Windows form is one skipped command,
 * named as such, and the Unix ones are the steps.
 */
import assert from "node:assert/strict";
import { convertCurl } from "../../lib/convert/curl.ts";

const PAGE = [
  "Create a new vhost:",
  "",
  ":: Windows",
  'C:\\> curl -i -u guest:guest -H "content-type:application/json" ^',
  "      -XPUT http://a.test/api/vhosts/foo",
  "",
  "# Unix",
  '$ curl -i -u guest:guest -H "content-type:application/json" \\',
  "   -XPUT http://a.test/api/vhosts/foo",
  "",
  "HTTP/1.1 201 Created",
  "",
  "Create a new exchange:",
  "",
  ":: Windows",
  'C:\\> curl -i -u guest:guest -H "content-type:application/json" ^',
  '       -XPUT -d"{""type"":""direct"",""durable"":true}" ^',
  "       http://a.test/api/exchanges/%2F/my-new-exchange",
  "",
  "# Unix",
  '$ curl -i -u guest:guest -H "content-type:application/json" \\',
  `    -XPUT -d'{"type":"direct","durable":true}' \\`,
  "    http://a.test/api/exchanges/%2F/my-new-exchange",
  "",
].join("\n");

Deno.test("beside Unix commands, each Windows form is one skipped command named so", () => {
  const { yaml, summary } = convertCurl(PAGE);
  const why = `${yaml}\n${summary.skipped.join("\n")}`;
  assert.equal(summary.steps, 2, why);
  assert.equal(summary.commands, 2, why);
  const windows = summary.skipped.filter((s) => /Windows/.test(s));
  assert.deepEqual(windows.map((s) => s.split(":")[0]), ["line 4", "line 16"], why);
  assert.ok(!summary.skipped.some((s) => /C:>|-XPUT|-d"/.test(s)), why);
  assert.match(yaml, /type: direct/, why);
});

Deno.test("a cmd.exe session at C:\\> prompts is read as cmd.exe, ^ joining lines", () => {
  const windows = PAGE.split("\n").filter((_l, i) => i < 5 || (i >= 12 && i < 18)).join("\n");
  const { yaml, summary } = convertCurl(`${windows}\n`);
  const why = `${yaml}\n${summary.skipped.join("\n")}`;
  assert.equal(summary.steps, 2, why);
  assert.match(yaml, /url: \$\{vars\.base_url\}\/api\/vhosts\/foo/, why);
  assert.match(yaml, /type: direct\n\s+durable: true/, why);
  assert.ok(!summary.skipped.some((s) => /C:>|-XPUT/.test(s)), why);
});

Deno.test("a PowerShell session at PS C:\\> prompts is read as PowerShell, ` joining lines", () => {
  const text = [
    "PS C:\\Users\\me> curl.exe -u guest:guest `",
    "    -X DELETE http://a.test/api/exchanges/%2F/my-new-exchange",
    "PS C:\\Users\\me> curl.exe -u guest:guest http://a.test/api/vhosts",
    "",
  ].join("\n");
  const { yaml, summary } = convertCurl(text);
  const why = `${yaml}\n${summary.skipped.join("\n")}`;
  assert.equal(summary.steps, 2, why);
  assert.match(yaml, /method: DELETE/, why);
  assert.deepEqual(summary.skipped, [], why);
});
