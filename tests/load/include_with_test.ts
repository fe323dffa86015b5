/**
 * Structured `with` values: a map or list given to an included flow's var
 * arrives with its structure and types (expressions inside expanded where
 * the include step runs), can be sent whole as a body or read field by
 * field (`${vars.article.title}`), is masked where its keys say secret in
 * every output, and is checked when the flow loads: shape against the
 * var's default, depth and size bounded, one positioned problem each.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import "../support/engines.ts";

const PASSWORD = "pw-7d1f0b9e4c2a";

/** An API that keeps every request's headers and JSON body. */
function serve() {
  const got: { path: string; headers: Record<string, string>; body: unknown }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/login") return Response.json({ id: 41, name: "ann" });
    const text = await req.text();
    got.push({
      path: decodeURIComponent(url.pathname),
      headers: Object.fromEntries(req.headers),
      body: text ? JSON.parse(text) : undefined,
    });
    return Response.json({ ok: true }, { status: url.pathname.startsWith("/fail") ? 500 : 201 });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, got, close: () => server.shutdown() };
}

async function files(root: string, tree: Record<string, string>) {
  for (const [path, text] of Object.entries(tree)) {
    await Deno.mkdir(`${root}/${path}`.replace(/\/[^/]*$/, ""), { recursive: true });
    await Deno.writeTextFile(`${root}/${path}`, text);
  }
}

/** An included flow that sends a map var as the body and reads fields of map vars. */
function post(url: string, path = "articles"): string {
  return `name: post
vars:
  article: {title: untitled}
  headers: {x-a: "0"}
  tags: []
  login: null
steps:
  - name: create
    request:
      method: POST
      url: "${url}/${path}/\${vars.article.title}"
      headers: {x-a: "\${vars.headers.x-a}", x-user: "\${vars.login.user}"}
      body: "\${vars.article}"
    assert: {status: 201}
`;
}

// deno-lint-ignore no-explicit-any
type Json = any;

Deno.test("a map or list given with with arrives with its structure and types, whole or field by field", async () => {
  const api = serve();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-include-with-" });
  try {
    await files(dir, {
      "common/post.yaml": post(api.url),
      "flows/ok.yaml": `name: ok
vars:
  n: 3
steps:
  - name: who
    request: {url: "${api.url}/login"}
    capture: {id: $.json.id, name: $.json.name}
  - name: article
    include: ../common/post.yaml
    with:
      article:
        title: Hello
        author: {id: "\${steps.who.id}", name: "by \${steps.who.name}"}
        tags: [a, "\${steps.who.name}", "\${vars.n}"]
        draft: false
      headers: {x-a: "1"}
      login: {user: "\${steps.who.name}"}
`,
    });
    const run = await runCli(["run", `${dir}/flows/ok.yaml`]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(api.got.length, 1);
    const [sent] = api.got;
    assert.equal(sent.path, "/articles/Hello");
    assert.equal(sent.headers["x-a"], "1");
    assert.equal(sent.headers["x-user"], "ann");
    // An exact ${…} keeps its type (the captured number 41, the var 3); text around it makes a string.
    assert.deepEqual(sent.body, {
      title: "Hello",
      author: { id: 41, name: "by ann" },
      tags: ["a", "ann", 3],
      draft: false,
    });
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a secret-named key inside a structured with value is masked in every output", async () => {
  const api = serve();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-include-with-" });
  try {
    await files(dir, {
      "common/post.yaml": post(api.url, "fail"),
      "flows/secret.yaml": `name: secret
steps:
  - name: article
    include: ../common/post.yaml
    with:
      article: {title: t, credentials: {user: ann, password: "${PASSWORD}"}}
      login: {user: ann, api_key: "k-${PASSWORD}"}
`,
    });
    const run = await runCli(["run", `${dir}/flows/secret.yaml`, "--out-dir", `${dir}/out`, "-vv"]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    // The body was sent as given: masking is for what flowrun writes, not for the server.
    assert.equal((api.got[0].body as Json).credentials.password, PASSWORD);
    assert.match(run.stdout, /"password":"\*\*\*"/);
    const outputs: Record<string, string> = { stdout: run.stdout, stderr: run.stderr };
    for await (const entry of Deno.readDir(`${dir}/out`)) {
      outputs[entry.name] = await Deno.readTextFile(`${dir}/out/${entry.name}`);
    }
    assert.deepEqual(
      Object.keys(outputs).sort(),
      [
        "junit.xml",
        "manifest.json",
        "report.html",
        "report.json",
        "run.log.ndjson",
        "stderr",
        "stdout",
      ],
    );
    for (const [name, text] of Object.entries(outputs)) {
      assert.ok(!text.includes(PASSWORD), `${name} shows the password`);
    }
    const report = JSON.parse(outputs["report.json"]);
    const step = report.flows[0].steps[0];
    assert.equal(step.name, "article › create");
    assert.equal(JSON.parse(step.request.body).credentials.password, "***");
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a with value of the wrong shape, too deep or too large is one positioned problem, in validate and run alike", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-include-with-" });
  try {
    const many = `[${Array.from({ length: 10_001 }, () => "0").join(", ")}]`;
    await files(dir, {
      "common/post.yaml": post("http://127.0.0.1:9"),
      "flows/bad.yaml": `name: bad
steps:
  - name: a
    include: ../common/post.yaml
    with: {article: hello, headers: [x-a], tags: {a: 1}}
  - name: b
    include: ../common/post.yaml
    with:
      article: {deep: ${"[".repeat(70)}${"]".repeat(70)}}
  - name: c
    include: ../common/post.yaml
    with: {tags: ${many}}
  - name: d
    request: {url: "http://127.0.0.1:9/\${vars.article.title}"}
`,
    });
    const validate = await runCli(["validate", `${dir}/flows/bad.yaml`, "--format", "json"]);
    assert.equal(validate.code, 2, validate.stdout + validate.stderr);
    const problems = JSON.parse(validate.stdout);
    assert.deepEqual(problems.map((p: Json) => [p.line, p.column, p.code]), [
      [5, 21, "wrong-type"],
      [5, 37, "wrong-type"],
      [5, 50, "wrong-type"],
      [9, 16, "var-too-large"],
      [12, 18, "var-too-large"],
      [14, 40, "unknown-var"],
    ]);
    assert.equal(
      problems[0].message,
      `"with" of step "a" gives var "article" a single value, but ${dir}/common/post.yaml declares it with a map as its default.`,
    );
    assert.match(problems[0].hint, /^Pass a map, e\.g\. article: \{key: value\}/);
    assert.match(problems[3].message, /nested more than 64 levels deep/);
    assert.match(problems[4].message, /has more than 10,000 entries/);
    const run = await runCli(["run", `${dir}/flows/bad.yaml`, "--report-json", `${dir}/r.json`]);
    assert.equal(run.code, 2, run.stdout + run.stderr);
    const ran = JSON.parse(await Deno.readTextFile(`${dir}/r.json`)).problems;
    const key = (p: Json) => [p.line, p.column, p.code, p.message, p.hint].join(" ");
    assert.deepEqual(ran.map(key), problems.map(key));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a map var of a flow is a body and a source of fields; a missing field names the keys there are", async () => {
  const api = serve();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-include-with-" });
  try {
    await files(dir, {
      "flows/own.yaml": `name: own
vars:
  article: {title: Own, meta: {lang: en}}
steps:
  - name: create
    request:
      method: POST
      url: "${api.url}/articles/\${vars.article.meta.lang}"
      body: "\${vars.article}"
    assert: {status: 201}
  - name: typo
    request: {url: "${api.url}/x/\${vars.article.titel}"}
`,
    });
    const run = await runCli(["run", `${dir}/flows/own.yaml`, "--report-json", `${dir}/r.json`]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.deepEqual(api.got.map((g) => [g.path, g.body]), [[
      "/articles/en",
      { title: "Own", meta: { lang: "en" } },
    ]]);
    const typo = JSON.parse(await Deno.readTextFile(`${dir}/r.json`)).flows[0].steps[1];
    assert.equal(typo.status, "error");
    assert.equal(
      typo.message,
      'Var "article" has no field "titel" (in "${vars.article.titel}"; its keys: title, meta).',
    );
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});
