/**
 * `convertCurl` on what the second held-out round (tests/fixtures/curl/README.md)
 * found: each test was written failing from a command of
 * `heldout_apis.sh` or `heldout_shells.txt` before the converter was fixed.
 */
import assert from "node:assert/strict";
import { convertCurl, formatCurlSummary } from "../../lib/convert/curl.ts";

Deno.test("a URL that starts with a variable keeps the variable's own scheme", () => {
  // Kubernetes' "Access the API from a Pod": APISERVER=https://kubernetes.default.svc.
  const { yaml, summary } = convertCurl(
    `curl --header "Authorization: Bearer \${TOKEN}" --request PATCH \\
  \${APISERVER}/apis/apps/v1/namespaces/"\${NS}"/statefulsets/web -d '{"spec":{"replicas":1}}'`,
  );
  assert.match(yaml, /^ {2}base_url: \$\{ENV\.APISERVER\}$/m);
  assert.ok(!yaml.includes("http://${ENV.APISERVER}"), yaml);
  assert.match(
    yaml,
    /url: \$\{vars\.base_url\}\/apis\/apps\/v1\/namespaces\/\$\{ENV\.NS\}\/statefulsets\/web/,
  );
  assert.match(formatCurlSummary(summary), /APISERVER.*scheme/);
  // Written with a scheme, the variable is the host alone.
  const host = convertCurl(`curl "https://$HOST:8443/v1/x"`).yaml;
  assert.match(host, /^ {2}base_url: https:\/\/\$\{ENV\.HOST\}:8443$/m);
});

Deno.test("a -F file part without ;type= gets the type curl gives it, not the flow's guess", () => {
  // OpenAI's "Upload file" (-F file="@mydata.jsonl"): curl knows ten extensions, the rest
  // go as application/octet-stream, where a flow would guess text/csv or application/json.
  const { yaml } = convertCurl(
    `curl https://api.test/v1/files -F purpose=fine-tune -F file="@data.csv" -F doc=@a.json -F img=@cat.gif -F page=@p.htm`,
  );
  assert.match(yaml, /file: \{ file: data\.csv, content_type: application\/octet-stream \}/);
  assert.match(yaml, /doc: \{ file: a\.json, content_type: application\/octet-stream \}/);
  assert.match(yaml, /img: \{ file: cat\.gif \}/);
  assert.match(yaml, /page: \{ file: p\.htm, content_type: text\/html \}/);
});

Deno.test("-F with a written multipart Content-Type makes no placeholder upload", () => {
  // OpenAI's "Create transcription" writes -H "Content-Type: multipart/form-data" beside -F.
  const { yaml, summary, files } = convertCurl(
    `curl https://api.test/v1/audio/transcriptions -H "Authorization: Bearer $KEY" \\
  -H "Content-Type: multipart/form-data" -F file="@speech.mp3" -F model="whisper-1"`,
  );
  assert.deepEqual(files, []);
  assert.ok(!/placeholder|upload\.bin/.test(yaml + formatCurlSummary(summary)), yaml);
  assert.match(yaml, /file: \{ file: speech\.mp3, content_type: application\/octet-stream \}/);
  assert.match(yaml, /model: whisper-1/);
  assert.ok(!/content-type/i.test(yaml), yaml);
});

/** Files a command names, as the CLI reads them: from a map here. */
function filesOf(map: Record<string, string>) {
  return { read: (p: string) => map[p], rebase: (p: string) => p };
}

Deno.test("a command with no URL is said, not dropped in silence", () => {
  const { summary } = convertCurl(`curl -H 'X-A: 1'\ncurl https://api.test/x`);
  assert.equal(summary.steps, 1);
  assert.match(formatCurlSummary(summary), /line 1.*no URL/);
});

Deno.test("-K reads curl's config file: its URL, headers and data", () => {
  const files = filesOf({
    "api.curlrc":
      `# the API\nurl = "https://api.test/v1/items"\nheader = "X-Api-Key: k-0123456789abcdef"\n` +
      `--data-raw "{\\"a\\": 1}"\n-H "Content-Type: application/json"\nsilent\nrequest POST\n`,
  });
  const { yaml, summary } = convertCurl(`curl -K api.curlrc`, { files });
  assert.equal(summary.steps, 1, formatCurlSummary(summary));
  assert.match(yaml, /method: POST/);
  assert.match(yaml, /url: \$\{vars\.base_url\}\/v1\/items/);
  assert.match(yaml, /x-api-key: \$\{ENV\.API_KEY\}/);
  assert.match(yaml, /content-type: application\/json/);
  assert.match(yaml, /body:\n\s+a: 1/);
  assert.ok(!yaml.includes("k-0123456789abcdef"));
  // Without the file, the summary names it.
  const missing = convertCurl(`curl --config nowhere.txt https://api.test/x`, { files });
  assert.match(formatCurlSummary(missing.summary), /nowhere\.txt/);
});

Deno.test("-H @file reads one header per line", () => {
  const files = filesOf({ "headers.txt": "X-Trace: abc\r\nAccept: application/json\n\n" });
  const { yaml } = convertCurl(`curl -H @headers.txt https://api.test/h`, { files });
  assert.match(yaml, /x-trace: abc/);
  assert.match(yaml, /accept: application\/json/);
});

Deno.test("-d @- reads the file standard input is redirected from", () => {
  const files = filesOf({ "body.json": '{"op":"x"}' });
  const { yaml, summary } = convertCurl(
    `curl -X PATCH -H 'Content-Type: application/json' -d @- https://api.test/items/7 < body.json`,
    { files },
  );
  assert.match(yaml, /body:\n\s+op: x/);
  assert.ok(!/standard input/.test(formatCurlSummary(summary)), formatCurlSummary(summary));
  const up = convertCurl(`curl -T - https://api.test/up <body.json`, { files }).yaml;
  assert.match(up, /body_file: body\.json/);
});

Deno.test("a \\ with blanks after it still continues the line, with a note", () => {
  // Pasted from docs, a line often keeps trailing spaces after its backslash.
  const { yaml, summary } = convertCurl(
    "curl https://api.test/t \\  \n  -H 'X-After: 1' \\\t\n  -d a=1",
  );
  assert.equal(summary.steps, 1);
  assert.deepEqual(summary.skipped, []);
  assert.match(yaml, /x-after: "1"|x-after: '1'/);
  assert.match(yaml, /a: "1"|a: '1'/);
  assert.match(formatCurlSummary(summary), /blanks? after .*\\.*line 1/);
});

Deno.test("PowerShell: curl.exe with ` continuations, $env: variables and '…' quoting", () => {
  const text = [
    'curl.exe -X POST "https://api.test/api/orders" `',
    '  -H "Content-Type: application/json" `',
    '  -H "Authorization: Bearer $env:SHOP_TOKEN" `',
    `  -d '{\\"sku\\":\\"tea\\",\\"note\\":\\"it''s 100%\\"}'`,
    'curl.exe -s "https://api.test/api/search?q=a&limit=5" -H "X-Tick: `"q`""; curl.exe https://api.test/b',
  ].join("\r\n");
  const { yaml, summary } = convertCurl(text);
  assert.equal(summary.steps, 3, yaml);
  assert.deepEqual(summary.skipped, []);
  assert.deepEqual(summary.env, ["SHOP_TOKEN"]);
  assert.match(yaml, /authorization: Bearer \$\{ENV\.SHOP_TOKEN\}/);
  assert.match(yaml, /sku: tea\n\s+note: it's 100%\n/);
  assert.match(yaml, /url: \$\{vars\.base_url\}\/api\/search\?q=a&limit=5/);
  assert.match(yaml, /x-tick: '"q"'/);
});

Deno.test("user:password in the URL is the step's basic auth, the password a variable", () => {
  // curl sends https://admin:pw@host/ as Basic auth; the flow sent nothing, and said nothing.
  const { yaml, summary } = convertCurl(`curl https://admin:hunter2pass@api.test/private`);
  assert.ok(!yaml.includes("hunter2pass"), yaml);
  assert.match(
    yaml,
    /auth:\n\s+basic:\n\s+username: admin\n\s+password: \$\{ENV\.BASIC_PASSWORD\}/,
  );
  assert.match(yaml, /url: \$\{vars\.base_url\}\/private\n/);
  assert.deepEqual(summary.env, ["BASIC_PASSWORD"]);
});

Deno.test("assignments, sudo and time before curl do not hide the command", () => {
  const { yaml, summary } = convertCurl(
    `TOKEN=abc LANG=C curl -H "Authorization: Bearer $TOKEN" https://api.test/x\n` +
      `time curl https://api.test/y\nsudo curl https://api.test/z`,
  );
  assert.equal(summary.steps, 3, formatCurlSummary(summary));
  assert.deepEqual(summary.skipped, []);
  assert.match(yaml, /authorization: Bearer \$\{ENV\.TOKEN\}/);
  assert.ok(!yaml.includes("abc"), yaml);
  assert.match(formatCurlSummary(summary), /TOKEN=…, LANG=… before curl are not carried/);
});

Deno.test("2>&1 is a redirection, not a command", () => {
  const { summary } = convertCurl(`curl -s -w '%{http_code}' https://api.test/x 2>&1 >/dev/null`);
  assert.deepEqual(summary.skipped, []);
  assert.equal(summary.steps, 1);
});

Deno.test("a Host header, which a flow cannot send, is named", () => {
  const { summary } = convertCurl(`curl -H 'Host: other.test' https://api.test/x`);
  assert.match(formatCurlSummary(summary), /Host header "other\.test" is not carried/);
});
