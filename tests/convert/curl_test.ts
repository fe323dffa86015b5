/**
 * `convertCurl`: one step per request, secrets as variables and never in the
 * output, what was skipped, ignored and not carried said, bad input as one
 * sentence, the same text giving the same bytes, and time in proportion to
 * the input.
 */
import assert from "node:assert/strict";
import { assertLinear } from "../support/timing.ts";
import { UsageError } from "../../lib/model/errors.ts";
import { convertCurl, formatCurlSummary } from "../../lib/convert/curl.ts";
import { MAX_CURL_COMMANDS } from "../../lib/convert/curl_shell.ts";

/** The notes but the one every conversion without pasted answers has: curl_status_default_test.ts. */
const notBelow400 = (notes: string[]) => notes.filter((n) => !n.includes("below 400"));

const SESSION = `curl 'https://app.test/api/me?api_key=k3y-0123456789' \\
  -H 'authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.c2ln' \\
  -b 'sessionid=8f7d6c5b4a39e2d1; _ga=GA1.1.1.1; theme=dark' \\
  -H 'sec-fetch-mode: cors' -H 'user-agent: Mozilla/5.0' --compressed
curl https://app.test/api/login -H 'content-type: application/json' \\
  --data-raw '{"email":"ann@example.com","password":"hunter2hunter2"}'
curl -u admin:s3cr3t-pw https://app.test/api/admin/stats --digest -c jar.txt
echo done`;

Deno.test("secrets become required variables and no secret value is written", () => {
  const { yaml, summary } = convertCurl(SESSION);
  for (
    const secret of [
      "k3y-0123456789",
      "eyJhbGciOiJIUzI1NiJ9",
      "8f7d6c5b4a39e2d1",
      "hunter2hunter2",
      "s3cr3t-pw",
      btoa("admin:s3cr3t-pw"),
    ]
  ) {
    assert.ok(!yaml.includes(secret), secret);
    assert.ok(!formatCurlSummary(summary).includes(secret), secret);
  }
  assert.deepEqual(summary.env, [
    "API_KEY",
    "SESSION_COOKIE",
    "API_TOKEN",
    "LOGIN_PASSWORD",
    "DIGEST_PASSWORD",
  ]);
  // --digest -u is the step's auth: the user name as written, the password a variable.
  assert.match(
    yaml,
    /auth:\n {6}digest:\n {8}username: admin\n {8}password: \$\{ENV\.DIGEST_PASSWORD\}\n {4}request:/,
  );
  assert.doesNotMatch(yaml, /authorization: Basic/);
  assert.match(yaml, /url: \$\{vars\.base_url\}\/api\/me\?api_key=\$\{ENV\.API_KEY\}/);
  assert.match(yaml, /cookie: theme=dark; \$\{ENV\.SESSION_COOKIE\}/);
  assert.ok(!/sec-fetch|user-agent|_ga|accept-encoding/.test(yaml), yaml);
  assert.match(yaml, /^# Set these environment variables before running/m);
});

Deno.test("the summary names skipped commands and ignored options per step", () => {
  const { summary } = convertCurl(SESSION);
  const text = formatCurlSummary(summary);
  assert.match(text, /^Converted 3 curl commands into 3 steps\.$/m);
  assert.match(text, /^Skipped 1 command that is not curl: line 8: echo\.$/m);
  assert.match(
    text,
    /^Ignored options: list_stats \(line 7\): -c \(--cookie-jar\)\.$/m,
  );
  assert.match(
    text,
    /^Set before running: API_KEY, SESSION_COOKIE, API_TOKEN, LOGIN_PASSWORD, DIGEST_PASSWORD\.$/m,
  );
});

Deno.test("a command is sent as written: no run id, no fresh id, $NAME as the variable", () => {
  const { yaml, summary } = convertCurl(
    `curl https://a.test/users -H "Idempotency-Key: 6f1c2b7e-8d4a-4e3f-9a1b-c5d6e7f80912" -H "X-Tenant: $TENANT" --json '{"email":"ann@example.com","name":"user_1234","ref":"6f1c2b7e-8d4a-4e3f-9a1b-c5d6e7f80913"}'`,
  );
  assert.ok(!yaml.includes("RUN_ID") && !yaml.includes("RANDOM"), yaml);
  assert.match(yaml, /idempotency-key: "6f1c2b7e-8d4a-4e3f-9a1b-c5d6e7f80912"/);
  assert.match(yaml, /x-tenant: \$\{ENV\.TENANT\}/);
  assert.match(yaml, /email: ann@example\.com/);
  assert.deepEqual(summary.env, ["TENANT"]);
});

Deno.test("spelling b writes ${NAME} references", () => {
  const { yaml } = convertCurl(
    `curl https://a.test/x -H 'Authorization: Bearer abcdef123456' -H "X: $Y"`,
    {
      spelling: "b",
    },
  );
  assert.match(yaml, /authorization: Bearer \$\{API_TOKEN\}/);
  assert.match(yaml, /x: \$\{Y\}/);
  assert.match(yaml, /base_url: \$\{BASE_URL:-https:\/\/a\.test\}/);
});

Deno.test("-u is the step's auth: variables as written, a key with no password as a variable", () => {
  const vars = convertCurl("curl -u $SID:$TOKEN https://a.test/x");
  assert.deepEqual(vars.summary.env, ["SID", "TOKEN"]);
  assert.match(
    vars.yaml,
    /auth:\n {6}basic:\n {8}username: \$\{ENV\.SID\}\n {8}password: \$\{ENV\.TOKEN\}\n/,
  );
  assert.deepEqual(notBelow400(vars.summary.notes), []);
  const key = convertCurl("curl https://api.stripe.test/v1/charges -u sk_test_abc123456789:");
  assert.deepEqual(key.summary.env, ["BASIC_USER"]);
  assert.ok(!key.yaml.includes("sk_test_abc123456789"));
  assert.match(
    key.yaml,
    /basic:\n {8}username: \$\{ENV\.BASIC_USER\}\n {8}password: \$\{ENV\.BASIC_PASSWORD:-\}\n/,
  );
  const asks = convertCurl("curl -u ann https://a.test/x");
  assert.match(asks.summary.notes.join("\n"), /-u "ann" has no password: curl would ask for one/);
});

Deno.test("--aws-sigv4 is the step's aws_sigv4: region and service written, else from the AWS host", () => {
  const { yaml, summary } = convertCurl(
    `curl --aws-sigv4 "aws:amz:us-east-1:execute-api" --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" https://abc.execute-api.us-east-1.amazonaws.com/prod/items
curl --aws-sigv4 aws:amz -u "AKIDEXAMPLE:wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" "https://sqs.eu-west-1.amazonaws.com/?Action=ListQueues"
curl --aws-sigv4 aws:amz https://s3.amazonaws.com/bucket/key
curl --aws-sigv4 aws:amz https://api.example.test/x`,
  );
  assert.ok(!yaml.includes("wJalrXUtnFEMI"), yaml);
  const blocks = [...yaml.matchAll(/aws_sigv4:\n((?: {8}.*\n)+)/g)].map((m) =>
    m[1].trim().split(/\n\s*/)
  );
  assert.deepEqual(blocks, [
    [
      "region: us-east-1",
      "service: execute-api",
      "access_key_id: ${ENV.AWS_ACCESS_KEY_ID}",
      "secret_access_key: ${ENV.AWS_SECRET_ACCESS_KEY}",
    ],
    [
      "region: eu-west-1",
      "service: sqs",
      // The standard names, as the first command wrote them: the keys go there.
      "access_key_id: ${ENV.AWS_ACCESS_KEY_ID}",
      "secret_access_key: ${ENV.AWS_SECRET_ACCESS_KEY}",
    ],
    ["region: us-east-1", "service: s3"],
    ["region: REGION", "service: SERVICE"],
  ]);
  assert.match(summary.notes.join("\n"), /"api\.example\.test" is no AWS host: set them/);
});

Deno.test("the request options, multipart and body_file are the flow's own keys", () => {
  const { yaml, summary } = convertCurl(
    "curl -kL -m 5 -x proxy.test:8080 -F 'doc=@a dir/r.pdf;type=application/pdf' -F n=1 -F 'x${y}=2' https://a.test/up\n" +
      "curl --data-binary @blob.bin https://a.test/raw",
  );
  assert.match(yaml, /doc: \{ file: a dir\/r\.pdf, content_type: application\/pdf \}/);
  assert.match(yaml, /"n": "1"/);
  // A multipart field's name is a template: a written `${` is escaped.
  assert.match(yaml, /"x\$\$\{y\}": "2"/);
  assert.match(yaml, /body_file: blob\.bin/);
  assert.match(
    yaml,
    /options:\n {6}insecure: true\n {6}follow_redirects: true\n {6}timeout: "5000ms"\n {6}proxy: http:\/\/proxy\.test:8080/,
  );
  // Without a way to read files (the library alone), nothing is said about them.
  assert.deepEqual(notBelow400(summary.notes), []);
});

Deno.test("bad input is one sentence: an open quote, no curl, nothing, too many commands", () => {
  const cases: [string, string][] = [
    ["curl 'https://a.test/", "Unterminated single quote at line 1, column 6."],
    ["echo hi\nls", 'The input holds no curl command (2 commands, none starting with "curl").'],
    ["  \n# only a comment\n", "The input holds no command."],
    ["curl ftp://a.test/f", "No curl command in the input sends an http(s) request."],
    ["curl a.test\n".repeat(MAX_CURL_COMMANDS + 1), "The input holds more than 10,000 commands."],
  ];
  for (const [text, message] of cases) {
    assert.throws(() => convertCurl(text), (e) => {
      assert.ok(e instanceof UsageError && e.code === "bad-curl", String(e));
      assert.equal(e.message, message);
      assert.ok(e.hint !== undefined && !e.hint.includes("\n"));
      return true;
    });
  }
});

Deno.test("the same commands give the same bytes", () => {
  assert.equal(convertCurl(SESSION).yaml, convertCurl(SESSION).yaml);
});

Deno.test("conversion time grows in proportion to the number of commands", () => {
  const commands = (n: number) =>
    Array.from(
      { length: n },
      (_, i) =>
        `curl 'https://a.test/v1/items/${i}?page=${i}' -H 'authorization: Bearer tok${
          i % 9
        }abcdefgh' --json '{"name":"item ${i}","n":${i}}'`,
    ).join("\n");
  const texts = new Map([250, 1000].map((n) => [n, commands(n)]));
  assert.equal(convertCurl(texts.get(250)!).summary.steps, 250);
  // A ratio within this process, not a time: a busy machine slows both runs alike.
  assertLinear("curl convert", (n) => convertCurl(texts.get(n)!), 250, 4);
});

Deno.test("mangled commands either convert into a flow that loads or fail with one sentence", async () => {
  const { loadFlow } = await import("../../lib/load/mod.ts");
  // A mangled user name may need YAML the fast reader leaves to the full parser.
  await (await import("../../lib/load/yaml_engine.ts")).yamlEngine.load();
  const corpus = new URL("../fixtures/curl/", import.meta.url).pathname;
  const texts = await Promise.all(
    ["chrome_bash.sh", "chrome_cmd.txt", "webkit_cmd.txt", "stripe_docs.sh", "scripts.sh"].map((
      f,
    ) => Deno.readTextFile(corpus + f)),
  );
  // A fixed seed: the same mutations on every run, so a failure reproduces.
  let seed = 41;
  const random = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const pieces = [
    "'",
    '"',
    "\\",
    "^",
    "$",
    "`",
    "\n",
    " ",
    "-d",
    "-F",
    "@",
    "=",
    ";",
    "&",
    "%",
    "{",
    "\r",
    "-H",
    "é",
    "\u0000",
  ];
  let converted = 0;
  for (let i = 0; i < 300; i++) {
    let text = texts[random(texts.length)];
    for (let k = 0, n = 1 + random(4); k < n; k++) {
      const at = random(text.length);
      text = text.slice(0, at) + pieces[random(pieces.length)] + text.slice(at + random(3));
    }
    let yaml: string;
    try {
      yaml = convertCurl(text).yaml;
    } catch (error) {
      if (!(error instanceof UsageError)) {
        throw new Error(`${text}\n---\n${(error as Error).stack}`);
      }
      assert.equal(error.code, "bad-curl");
      assert.ok(!error.message.includes("\n"), error.message);
      continue;
    }
    // The variables and files it names are the user's: every other problem is the converter's.
    const problems = loadFlow(yaml, "mangled.yaml").problems.filter((p) =>
      p.code !== "unset-env" && p.code !== "include-unavailable"
    );
    assert.deepEqual(problems.map((p) => `${p.code}: ${p.message}`), [], `${text}\n---\n${yaml}`);
    converted++;
  }
  assert.ok(converted > 100, `${converted} of 300 converted`);
});

Deno.test("what a flow cannot hold is left out or written as text, each with a note", async () => {
  const { loadFlow } = await import("../../lib/load/mod.ts");
  // A mangled user name may need YAML the fast reader leaves to the full parser.
  await (await import("../../lib/load/yaml_engine.ts")).yamlEngine.load();
  const { yaml, summary } = convertCurl([
    `curl https://a.test/a -H 'bad name: x' -H $'X-Two: line\\nbreak' -H 'X-Wide: \u0101' -H 'X-Ok: 1'`,
    "curl -X 'GE T' https://a.test/b",
    "curl -X CONNECT https://a.test/c",
    "curl -I -F f=@x.bin https://a.test/d",
    'curl -F "$FIELD=1" -H "$HDR: v" -T "$DIR/up.bin" -X POST https://a.test/e',
  ].join("\n"));
  const notes = summary.notes.join("\n");
  for (
    const expected of [
      /The header "bad name" cannot be sent by a flow \(its name is not an HTTP token\)/,
      /The header "X-Two" cannot be sent by a flow \(its value holds a line break or NUL\)/,
      /The header "X-Wide" cannot be sent by a flow \(its value holds characters past Latin-1\)/,
      /The method "GE T" is not one a flow can send; the request was skipped\./,
      /The method "CONNECT" is not one a flow can send/,
      /A HEAD request takes no body in a flow: the form or file was left out\./,
      /The name "\$FIELD" names a variable, which a flow cannot expand in a name/,
      /The name "\$HDR" names a variable/,
    ]
  ) assert.match(notes, expected);
  assert.equal(summary.steps, 3);
  assert.match(yaml, /x-ok: "1"/);
  assert.match(yaml, /"\$FIELD": "1"/);
  const problems = loadFlow(yaml, "left_out.yaml").problems.filter((p) =>
    p.code !== "unset-env" && p.code !== "include-unavailable"
  );
  assert.deepEqual(problems, []);
});
