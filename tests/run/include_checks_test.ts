/**
 * An include step's own `assert` and `capture`: they read the included
 * flow's last response (or a named step's, `response:`), are reported as the
 * include step's result at its own line in every report, and their captures
 * read like the included flow's outputs; what cannot be checked says why.
 */
import assert from "node:assert/strict";
import { XMLParser } from "fast-xml-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import { runCli } from "../support/cli.ts";
import "../support/engines.ts";

const TOKEN = "tok-5e0c93b1d8a2f746";

/** An API with a login, an article and a profile; it counts what it was sent. */
function serve() {
  const sent: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    sent.push(`${req.method} ${url.pathname}`);
    if (url.pathname === "/login") {
      return Response.json({ token: TOKEN, user: { name: "ann", id: 7 } });
    }
    if (url.pathname === "/articles/a1") {
      return Response.json({ article: { slug: "a1", title: "Hello", tags: ["x", "y"] } });
    }
    if (url.pathname.startsWith("/broken")) return Response.json({ ok: false }, { status: 500 });
    return Response.json({ path: url.pathname, auth: req.headers.get("authorization") });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, sent, close: () => server.shutdown() };
}

async function files(root: string, tree: Record<string, string>) {
  for (const [path, text] of Object.entries(tree)) {
    await Deno.mkdir(`${root}/${path}`.replace(/\/[^/]*$/, ""), { recursive: true });
    await Deno.writeTextFile(`${root}/${path}`, text);
  }
}

/** A login whose last request is not the login; an article fetch that includes the login. */
function shared(url: string): Record<string, string> {
  return {
    "common/login.yaml": `name: login
vars:
  skip_me: "no"
steps:
  - name: post
    request: {method: POST, url: "${url}/login", body: {user: ann}}
    capture: {t: $.json.token}
  - name: me
    if: {value: "\${vars.skip_me}", equals: "no"}
    request: {url: "${url}/me", headers: {authorization: "Bearer \${steps.post.t}"}}
outputs:
  token: "\${steps.post.t}"
`,
    // Their last step is an include: with checks of its own (the response it read), or without.
    "common/wrap_checked.yaml": `name: wrap checked
steps:
  - name: inner
    include: login.yaml
    response: post
    assert: {status: 200}
`,
    "common/wrap_plain.yaml": `name: wrap plain
steps:
  - name: inner
    include: login.yaml
`,
    "common/article.yaml": `name: article
steps:
  - name: auth
    include: login.yaml
  - name: get
    request: {url: "${url}/articles/a1"}
`,
  };
}

// deno-lint-ignore no-explicit-any
type Json = any;

const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  isArray: (name) => ["testsuite", "testcase", "failure", "error", "skipped"].includes(name),
});

function stepsOf(report: Json) {
  return report.flows[0].steps.map((s: Json) => ({
    name: s.name,
    status: s.status,
    file: s.file,
    line: s.line,
    message: s.message,
    assertions: (s.assertions ?? []).map((a: Json) => [a.path ?? a.name, a.passed, a.line]),
    captures: s.captures,
  }));
}

const reportSchema = JSON.parse(
  Deno.readTextFileSync(new URL("../../schema/report.schema.json", import.meta.url)),
);
const reportCheck = new Ajv2020({ allErrors: true, strict: false }).compile(reportSchema);
// A plain predicate: the compiled one's type guard would narrow the report to unknown.
const validReport = (data: unknown): boolean => reportCheck(data);

async function run(dir: string, flow: string) {
  const cli = await runCli([
    "run",
    `${dir}/flows/${flow}`,
    "--report-json",
    `${dir}/r.json`,
    "--report-junit",
    `${dir}/j.xml`,
    "--report-html",
    `${dir}/r.html`,
  ]);
  const report: Json = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
  // The include step's own result is a step like any other: the report stays valid.
  assert.ok(validReport(report), JSON.stringify(reportCheck.errors));
  const junit = xml.parse(await Deno.readTextFile(`${dir}/j.xml`));
  const html = await Deno.readTextFile(`${dir}/r.html`);
  return { cli, report, junit, html };
}

Deno.test("an include step checks and captures the included flow's last response, or a named step's", async () => {
  const api = serve();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-include-checks-" });
  try {
    await files(dir, {
      ...shared(api.url),
      "flows/ok.yaml": `name: ok
steps:
  - name: auth
    include: ../common/login.yaml
    response: post
    assert:
      status: 200
      json:
        - {path: $.json.user.name, equals: ann}
    capture: {uid: $.json.user.id}
  - name: last
    include: ../common/login.yaml
    assert: {json: [{path: $.json.path, equals: /me}]}
  - name: nested
    include: ../common/article.yaml
    assert: {json: [{path: $.json.article.tags, length: 2}]}
    capture: {title: $.json.article.title}
  - name: use
    request: {url: "${api.url}/u/\${steps.auth.uid}/\${steps.nested.capture.title}", headers: {authorization: "Bearer \${steps.auth.token}"}}
    assert: {json: [{path: $.json.path, equals: /u/7/Hello}]}
  - name: checked
    include: ../common/wrap_checked.yaml
    assert: {json: [{path: $.json.user.name, equals: ann}]}
  - name: plain
    include: ../common/wrap_plain.yaml
    assert: {json: [{path: $.json.path, equals: /me}]}
`,
    });
    const { cli, report, junit, html } = await run(dir, "ok.yaml");
    assert.equal(cli.code, 0, cli.stdout + cli.stderr);
    const steps = stepsOf(report);
    const own = steps.filter((s: Json) => !s.name.includes("›"));
    assert.deepEqual(own.map((s: Json) => [s.name, s.status, s.file, s.line]), [
      ["auth", "passed", undefined, 3],
      ["last", "passed", undefined, 11],
      ["nested", "passed", undefined, 14],
      ["use", "passed", undefined, 18],
      ["checked", "passed", undefined, 21],
      ["plain", "passed", undefined, 24],
    ]);
    assert.deepEqual(own[0].assertions, [["status", true, 7], ["$.json.user.name", true, 9]]);
    assert.deepEqual(own[0].captures, ["uid"]);
    // The include step sent nothing itself: the run's request count is its flows' requests.
    assert.equal(report.flows[0].steps.find((s: Json) => s.name === "auth").attempts, 0);
    assert.deepEqual(own[1].assertions, [["$.json.path", true, 13]]);
    assert.deepEqual(own[2].assertions, [["$.json.article.tags", true, 16]]);
    // The include step comes after its flow's steps, in run order.
    assert.deepEqual(steps.slice(0, 3).map((s: Json) => s.name), [
      "auth › post",
      "auth › me",
      "auth",
    ]);
    assert.ok(api.sent.includes("GET /u/7/Hello"), api.sent.join());
    const cases = junit.testsuites.testsuite[0].testcase;
    const auth = cases.find((c: Json) => c["@_name"] === "auth");
    assert.equal(auth["@_assertions"], "2");
    assert.equal(auth.failure, undefined);
    assert.match(cli.stdout, /1 passed · 18 steps: 18 passed/);
    assert.match(html, /nested › get/);
    assert.ok(!JSON.stringify(report).includes(TOKEN), "the token output stays masked");
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an include step's failed check fails it at its own line; a flow that failed first leaves it unchecked", async () => {
  const api = serve();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-include-checks-" });
  try {
    await files(dir, {
      ...shared(api.url),
      "common/broken.yaml": `name: broken
steps:
  - name: first
    request: {url: "${api.url}/broken"}
    assert: {status: 200}
  - name: second
    request: {url: "${api.url}/second"}
`,
      "flows/bad.yaml": `name: bad
steps:
  - name: auth
    include: ../common/login.yaml
    response: post
    assert:
      json:
        - {path: $.json.user.id, equals: 8}
  - name: after
    request: {url: "${api.url}/after"}
`,
      "flows/early.yaml": `name: early
steps:
  - name: b
    include: ../common/broken.yaml
    assert: {status: 200}
    capture: {p: $.json.path}
  - name: cleanup
    always: true
    request: {url: "${api.url}/cleanup"}
`,
    });
    const bad = await run(dir, "bad.yaml");
    assert.equal(bad.cli.code, 1, bad.cli.stdout + bad.cli.stderr);
    const steps = stepsOf(bad.report);
    const auth = steps.find((s: Json) => s.name === "auth");
    assert.equal(auth.status, "failed");
    assert.equal(auth.message, "$.json.user.id: expected 8, got 7.");
    assert.deepEqual(auth.assertions, [["$.json.user.id", false, 8]]);
    assert.equal(
      bad.report.flows[0].steps.find((s: Json) => s.name === "auth").failure_kind,
      "assertion",
    );
    assert.equal(steps.at(-1).message, 'Skipped because step "auth" failed.');
    const failure = bad.junit.testsuites.testsuite[0].testcase.find((c: Json) =>
      c["@_name"] === "auth"
    ).failure[0];
    assert.match(failure["@_message"], /expected 8, got 7/);
    assert.match(bad.cli.stdout, /✘ auth\s[\s\S]*bad\.yaml:8:/);
    assert.match(bad.html, /expected 8, got 7/);

    const early = await run(dir, "early.yaml");
    assert.equal(early.cli.code, 1);
    assert.deepEqual(
      stepsOf(early.report).map((s: Json) => [s.name, s.status, s.message, s.assertions.length]),
      [
        ["b › first", "failed", "status: expected 200, got 500.", 1],
        ["b › second", "skipped", 'Skipped because step "b › first" failed.', 0],
        ["b", "skipped", 'Not checked because step "b › first" failed.', 0],
        ["cleanup", "passed", undefined, 0],
      ],
    );
    assert.ok(!api.sent.includes("GET /second"));
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a named step that did not run, or an included flow that sent nothing, fails the include step clearly", async () => {
  const api = serve();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-include-checks-" });
  try {
    await files(dir, {
      ...shared(api.url),
      "flows/skipped.yaml": `name: skipped
steps:
  - name: auth
    include: ../common/login.yaml
    with: {skip_me: "yes"}
    response: me
    assert: {status: 200}
  - name: never
    request: {url: "${api.url}/never"}
`,
    });
    const { cli, report, junit } = await run(dir, "skipped.yaml");
    assert.equal(cli.code, 1, cli.stdout + cli.stderr);
    const auth = report.flows[0].steps.find((s: Json) => s.name === "auth");
    assert.equal(auth.status, "failed");
    assert.equal(
      auth.message,
      `Step "me" of ${dir}/common/login.yaml sent no request (it was skipped), so the checks of step "auth" have no response to read.`,
    );
    const testcase = junit.testsuites.testsuite[0].testcase.find((c: Json) =>
      c["@_name"] === "auth"
    );
    assert.match(testcase.failure[0]["@_message"], /sent no request/);
    assert.ok(!api.sent.includes("GET /never"));
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("every misuse of an include step's checks is one positioned problem, the same in validate and run", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-include-checks-" });
  try {
    await files(dir, {
      ...shared("http://127.0.0.1:9"),
      "flows/wrong.yaml": `name: wrong
steps:
  - name: auth
    include: ../common/login.yaml
    response: pots
    capture: {token: $.json.token, uid: $.json.user.id}
  - name: poll
    include: ../common/login.yaml
    loop: {max_attempts: 3, until: {status: 200}}
  - name: use
    request: {url: "http://127.0.0.1:9/\${steps.auth.uidd}"}
  - name: alone
    include: ../common/login.yaml
    response: post
`,
    });
    const expected = [
      [5, 15, "unknown-step", 'Did you mean "post"?'],
      [6, 15, "duplicate-capture", undefined],
      [9, 5, "unknown-key", undefined],
      [11, 40, "unknown-output", 'Did you mean "uid"?'],
      [14, 5, "missing-key", undefined],
    ];
    const validate = await runCli(["validate", `${dir}/flows/wrong.yaml`, "--format", "json"]);
    assert.equal(validate.code, 2, validate.stdout + validate.stderr);
    const problems = JSON.parse(validate.stdout);
    assert.deepEqual(
      problems.map((p: Json) => [
        p.line,
        p.column,
        p.code,
        expected.find((e) => e[2] === p.code)?.[3] ? p.hint : undefined,
      ]),
      expected,
    );
    const run = await runCli(["run", `${dir}/flows/wrong.yaml`, "--report-json", `${dir}/r.json`]);
    assert.equal(run.code, 2, run.stdout + run.stderr);
    const ran = JSON.parse(await Deno.readTextFile(`${dir}/r.json`)).problems;
    const key = (p: Json) => [p.line, p.column, p.code, p.message].join(" ");
    assert.deepEqual(ran.map(key), problems.map(key));
    assert.match(problems[2].hint, /An include step cannot poll/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
