/**
 * `convert curl`: a command substitution that encodes text the command line
 * itself holds. A push gateway's README ends a URL with
 * `$(echo -n '/var/tmp' | base64url)`, API docs send
 * `Authorization: Basic $(echo -n user:pass | base64)` or a hex signature
 * from `xxd -p`: the shell runs the pipeline, curl sends its output. The
 * converter kept `$(…)` as text, so the server got the shell's words (400).
 * A pipeline that reads nothing but its own words (`echo`, `printf`, a
 * here-string) through encoders (`base64`, `basenc`, basez's `base64url`,
 * `base16`, `xxd -p`, `openssl base64`, `tr`) is run when converting, as the
 * shell would; anything else (a variable, a file, another program) stays
 * text and is named, with its line and column. Run against a server the test
 * starts that keeps what it receives.
 */
import assert from "node:assert/strict";
import { convertCurl, formatCurlSummary } from "../../lib/convert/curl.ts";
import { withCurlFlow } from "../support/curl_run.ts";

const GW = "http://localhost:9091";

/** The URL path and `x-value` header one command sends, as the converter writes them. */
function sent(text: string): { yaml: string; summary: string } {
  const { yaml, summary } = convertCurl(`${text}\n`);
  assert.equal(summary.steps, 1, `${text}\n${yaml}`);
  return { yaml, summary: formatCurlSummary(summary) };
}

Deno.test("an encoder over the command line's own words is run when converting", () => {
  const cases: [string, string][] = [
    [`$(echo -n '/var/tmp' | base64url)`, "L3Zhci90bXA="],
    [`$(echo -n /var/tmp | base64)`, "L3Zhci90bXA="],
    [`"$(printf '%s' '/var/tmp' | base64 -w0)"`, "L3Zhci90bXA="],
    [`$(printf /var/tmp | basenc --base64url)`, "L3Zhci90bXA="],
    ["`echo -n /var/tmp | base64`", "L3Zhci90bXA="],
    [`$(echo /var/tmp | base64)`, "L3Zhci90bXAK"],
    [`$(base64 <<< /var/tmp)`, "L3Zhci90bXAK"],
    [`$(echo -n '/var/tmp' | base64 | tr '+/' '-_' | tr -d '=')`, "L3Zhci90bXA"],
    [`$(echo -n ab | xxd -p)`, "6162"],
    [`$(echo -n ab | base16)`, "6162"],
    [`$(echo -n ab | basenc --base16)`, "6162"],
    [`$(echo -n ab | base32)`, "MFRA===="],
    [`$(echo -n ab | openssl base64)`, "YWI="],
    [`$(echo -n YWI= | base64 -d)`, "ab"],
    [`$(echo -n 'a b' | tr ' ' '_')`, "a_b"],
  ];
  for (const [written, value] of cases) {
    const { yaml, summary } = sent(`curl -X PUT ${GW}/metrics/job/j/path@base64/${written}`);
    assert.ok(yaml.includes(`/path@base64/${value}\n`), `${written}\n${yaml}`);
    assert.ok(!yaml.includes("$("), yaml);
    assert.doesNotMatch(summary, /kept as text/, written);
    assert.match(summary, /run when converting/, written);
  }
});

Deno.test("a Basic credential encoded by the shell is the flow's Basic auth, never written", () => {
  const { yaml, summary } = sent(
    `curl -H "Authorization: Basic $(echo -n 'ann:s3cr3t-pw' | base64)" ${GW}/api/me`,
  );
  assert.ok(!yaml.includes("s3cr3t-pw") && !yaml.includes("czNjcjN0LXB3"), yaml);
  assert.ok(!summary.includes("s3cr3t-pw"), summary);
  assert.match(summary, /Set before running: .*PASSWORD/, summary);
});

Deno.test("a substitution that reads anything but its own words stays text, named with its place", () => {
  const cases = [
    `$(echo -n "$DIR" | base64)`,
    `$(cat dir.txt | base64)`,
    `$(base64 dir.txt)`,
    `$(echo -n /var/tmp | sha256sum)`,
    `$(echo -n /var/tmp | base64 | $ENCODER)`,
    // Unquoted, a line break in the output would split the word: bash's, not curl's.
    `$(printf '%s' '${"x".repeat(80)}' | base64)`,
  ];
  for (const written of cases) {
    const { yaml, summary } = sent(`curl -X PUT ${GW}/metrics/job/j/path@base64/${written}`);
    assert.match(summary, /line 1, column \d+ .*is not run; it is kept as text/, written);
    assert.doesNotMatch(summary, /run when converting/, written);
    assert.ok(yaml.includes("$("), yaml);
  }
});

Deno.test("the server receives what the shell would have computed", async () => {
  const got: string[] = [];
  await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    got.push(`${new URL(req.url).pathname} ${req.headers.get("x-dir")}`);
    return new Response(null, { status: 200 });
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const docs =
    `curl -X PUT -H "X-Dir: $(printf '%s' 'abc' | xxd -p)" ${origin}/metrics/job/d/path@base64/$(echo -n '/var/tmp' | base64url)\n`;
  await withCurlFlow(docs, async ({ runFlow }) => {
    const run = await runFlow({ BASE_URL: origin });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual(got, ["/metrics/job/d/path@base64/L3Zhci90bXA= 616263"]);
  });
});

Deno.test("Markdown's backticks around the commands are no substitutions", () => {
  // A README's inline code and fences: a backtick substitution is one line, never empty or a fence.
  const text = [
    "Use the `path@base64` suffix with `echo -n … | base64url` (package `basez`):",
    "```",
    `echo 'm 1' | curl --data-binary @- ${GW}/metrics/job/j/path@base64/$(echo -n '/var/tmp' | base64url)`,
    "```",
    "The `gzip` way, with `Content-Encoding: gzip` set:",
    "```bash",
    `curl -X PUT ${GW}/api/v1/admin/wipe`,
    "```",
  ].join("\n");
  const { yaml, summary } = convertCurl(`${text}\n`);
  assert.equal(summary.steps, 2, yaml);
  assert.ok(yaml.includes("/path@base64/L3Zhci90bXA=\n"), yaml);
  assert.ok(yaml.includes("/api/v1/admin/wipe\n"), yaml);
});
