/**
 * Hostile curl text that ended without a crash but with a summary no one
 * could read: a note per level of 10,000 nested `$(` or per unterminated
 * here-document (14 MB on stderr at 100,000), and a 1 MB option quoted
 * whole. The summary now lists 50 notes, each line clipped, and counts the rest.
 */
import assert from "node:assert/strict";
import { HANG_MS } from "../support/timing.ts";
import { convertCurl, formatCurlSummary } from "../../lib/convert/curl.ts";
import { loadFlow } from "../../lib/load/mod.ts";

Deno.test("curl guards: a summary stays short whatever the input holds", () => {
  const inputs = [
    `curl https://a.example/${"$(".repeat(10_000)}x${")".repeat(10_000)}`,
    `curl -d @- https://a.example/x ${"<<EOF ".repeat(10_000)}`,
    `curl --${"a".repeat(1_000_000)} https://a.example/`,
    `curl -K ${"k".repeat(100_000)} https://a.example/`,
  ];
  for (const input of inputs) {
    const started = performance.now();
    const text = formatCurlSummary(convertCurl(input).summary);
    assert.ok(text.length < 40_000, `${text.length} characters`);
    assert.ok(text.split("\n").every((line) => line.length < 600), text.slice(0, 300));
    // A hang guard (bench/ times conversion): a blow-up on these sizes takes hours.
    assert.ok(performance.now() - started < HANG_MS);
  }
  const many = formatCurlSummary(convertCurl(inputs[0]).summary);
  assert.match(many, /^note: and [\d,]+ more notes like these\.$/m);
  assert.match(
    formatCurlSummary(convertCurl(inputs[2]).summary),
    /… \(999,[\d,]+ more characters\)/,
  );
});

Deno.test("curl guards: a literal $ before a variable is sent, not the variable's name", () => {
  // `\$$AMOUNT` was written `$${ENV.AMOUNT}`, flowrun's escape for the text "${ENV.AMOUNT}".
  const { yaml } = convertCurl(
    `curl "https://a.example/price/\\$$AMOUNT?c=\\$\\$$CUR" -H "X-Cost: \\$$AMOUNT" -d "total=\\$$AMOUNT"`,
  );
  assert.ok(!yaml.includes("$${ENV"), yaml);
  assert.match(yaml, /^vars:\n {2}dollar: \$\n/m);
  assert.match(yaml, /url: \$\{vars\.base_url\}\/price\/\$\{vars\.dollar\}\$\{ENV\.AMOUNT\}/);
  assert.match(yaml, /c=\$\{vars\.dollar\}\$\{vars\.dollar\}\$\{ENV\.CUR\}/);
  assert.match(yaml, /x-cost: \$\{vars\.dollar\}\$\{ENV\.AMOUNT\}/);
  const loaded = loadFlow(yaml, "f.yaml", { env: () => "1" });
  assert.deepEqual(loaded.problems, []);
  assert.doesNotMatch(convertCurl(`curl https://a.example/ -H "X: $A"`).yaml, /dollar/);
});

Deno.test("curl guards: PowerShell's here-strings are one word, as PowerShell reads them", () => {
  // A `'` inside `@'…'@` ended in "Unterminated double quote" at the next command.
  const text = [
    'curl.exe -X POST "https://a.example/x" `',
    '  -H "Content-Type: application/json" `',
    "  -d @'",
    `{"name": "Ann", "note": "it's $HOME"}`,
    "'@",
    '$env:TOKEN = "abc"',
    'curl.exe https://a.example/y -d @"',
    '{"who": "$env:USER", "tick": "a`tb"}',
    '"@ -H "Authorization: Bearer $env:TOKEN"',
  ].join("\n");
  const { yaml, summary } = convertCurl(text);
  assert.match(yaml, /note: it's \$HOME/);
  const body = 'body: "{\\"who\\": \\"${ENV.USER}\\", \\"tick\\": \\"a\\tb\\"}"';
  assert.ok(yaml.includes(body), yaml);
  assert.match(yaml, /authorization: Bearer \$\{ENV\.TOKEN\}/);
  assert.match(formatCurlSummary(summary), /line 6: \$TOKEN\.$/m);
  assert.throws(
    () => convertCurl("curl.exe https://a.example `\n  -d @'\n{}\n"),
    /Unterminated here-string at line 2, column 6/,
  );
});

Deno.test("curl guards: a JSON body's keys holding ${ or {{ are sent as written", () => {
  const { yaml } = convertCurl(
    `curl https://a.example/x -H 'Content-Type: application/json' -d '{"\${k}": "\${v}", "{{k}}": 1}'`,
  );
  assert.match(yaml, /^ {8}"\$\$\{k\}": \$\$\{v\}$/m);
  assert.match(yaml, /^ {8}"\$\{vars\.lbrace\}\{k\}\}": 1$/m);
  assert.deepEqual(loadFlow(yaml, "f.yaml", { env: () => "1" }).problems, []);
});
