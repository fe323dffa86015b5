/**
 * Bodies beyond JSON, against a server that parses what it received: a
 * URL-encoded form, multipart fields and files (binary safe, content types),
 * a file's raw bytes, and GraphQL with its errors surfaced. Secrets in form
 * fields stay masked; files that cannot be read are problems before
 * anything is sent.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new Uint8Array(bytes));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

function serve() {
  const received: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const type = req.headers.get("content-type") ?? "";
    received.push(`${req.method} ${path}`);
    if (path === "/form") {
      const form = new URLSearchParams(await req.text());
      return Response.json({ type, fields: [...form.entries()] });
    }
    if (path === "/upload") {
      const data = await req.formData();
      const parts = [];
      for (const [name, value] of data.entries()) {
        parts.push(
          typeof value === "string" ? { name, value } : {
            name,
            filename: value.name,
            type: value.type,
            size: value.size,
            sha256: await sha256(new Uint8Array(await value.arrayBuffer())),
          },
        );
      }
      return Response.json({ multipart: type.startsWith("multipart/form-data"), parts });
    }
    if (path === "/raw") {
      const bytes = new Uint8Array(await req.arrayBuffer());
      return Response.json({ type, size: bytes.length, sha256: await sha256(bytes) });
    }
    if (path === "/graphql") {
      const { query, variables, operationName } = await req.json();
      if (String(query).includes("broken")) {
        return Response.json({ data: null, errors: [{ message: 'Cannot query field "broken"' }] });
      }
      return Response.json({
        data: { item: { id: variables.id, name: `item ${variables.id}` } },
        operationName,
      });
    }
    return new Response("not found", { status: 404 });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, received, close: () => server.shutdown() };
}

Deno.test("form, multipart with files, raw file bytes and GraphQL arrive as meant", async () => {
  const api = serve();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-bodies-" });
  try {
    const binary = new Uint8Array(4096).map((_, i) => (i * 7919) % 256);
    await Deno.mkdir(`${dir}/data`);
    await Deno.writeFile(`${dir}/data/photo.png`, binary);
    await Deno.writeFile(`${dir}/data/blob.bin`, binary.slice(0, 1000));
    const hash = await sha256(binary);
    const small = await sha256(binary.slice(0, 1000));
    await Deno.writeTextFile(
      `${dir}/bodies.yaml`,
      `name: bodies
vars: {term: "a b&c=d/é"}
steps:
  - name: form
    request:
      method: POST
      url: ${api.url}/form
      form: {user: ann, password: "\${ENV.FORM_PASSWORD}", term: "\${vars.term}", tag: [x, y]}
    assert:
      json:
        - {path: $.json.type, equals: application/x-www-form-urlencoded}
        - {path: $.json.fields, equals: [[user, ann], [password, "pw&=1"], [term, "a b&c=d/é"], [tag, x], [tag, y]]}
  - name: upload
    request:
      method: POST
      url: ${api.url}/upload
      multipart:
        title: Holiday
        photo: {file: data/photo.png}
        raw: {file: data/blob.bin, content_type: application/x-thing, filename: thing.dat}
    assert:
      json:
        - {path: $.json.multipart, equals: true}
        - {path: "$.json.parts[0]", equals: {name: title, value: Holiday}}
        - {path: "$.json.parts[1]", equals: {name: photo, filename: photo.png, type: image/png, size: 4096, sha256: ${hash}}}
        - {path: "$.json.parts[2].filename", equals: thing.dat}
        - {path: "$.json.parts[2].type", equals: application/x-thing}
        - {path: "$.json.parts[2].sha256", equals: ${small}}
  - name: raw
    request:
      method: PUT
      url: ${api.url}/raw
      body_file: data/photo.png
    assert:
      json:
        - {path: $.json.type, equals: application/octet-stream}
        - {path: $.json.sha256, equals: ${hash}}
  - name: graphql
    request:
      url: ${api.url}/graphql
      graphql:
        query: "query Item($id: ID!) { item(id: $id) { id name } }"
        variables: {id: "7"}
        operation_name: Item
    capture: {name: $.json.data.item.name}
    assert:
      json: [{path: $.json.operationName, equals: Item}]
`,
    );
    const run = await runCli(["run", `${dir}/bodies.yaml`, "--report-json", `${dir}/r.json`], {
      env: { FORM_PASSWORD: "pw&=1" },
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const [, , , gql] = report.flows[0].steps;
    assert.deepEqual(
      gql.assertions.map((a: { name?: string; passed: boolean }) => [a.name, a.passed]),
      [
        ["no GraphQL errors", true],
        [undefined, true],
      ],
    );
    assert.deepEqual(api.received, ["POST /form", "POST /upload", "PUT /raw", "POST /graphql"]);
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("GraphQL errors fail the step with their messages; secrets in forms stay masked", async () => {
  const api = serve();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-bodies-" });
  try {
    await Deno.writeTextFile(
      `${dir}/gql.yaml`,
      `name: gql
steps:
  - name: broken
    request: {url: ${api.url}/graphql, graphql: {query: "{ broken }"}}
  - name: login
    always: true
    request: {method: POST, url: ${api.url}/nowhere, form: {user: ann, password: "\${ENV.FORM_PASSWORD}"}}
    assert: {status: 200}
`,
    );
    const run = await runCli(["run", `${dir}/gql.yaml`, "--report-json", `${dir}/r.json`], {
      env: { FORM_PASSWORD: "hunter2-secret" },
    });
    assert.equal(run.code, 1);
    assert.match(run.stdout, /no GraphQL errors: \$\.json\.errors: .*Cannot query field/);
    const text = await Deno.readTextFile(`${dir}/r.json`);
    const report = JSON.parse(text);
    assert.equal(report.flows[0].steps[1].request.body, "user=ann&password=***");
    assert.ok(!text.includes("hunter2-secret"));
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bodies: one per request, files that exist, no body on GET", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-bodies-" });
  try {
    await Deno.writeTextFile(
      `${dir}/bad.yaml`,
      `name: bad
steps:
  - name: two
    request: {method: POST, url: http://x.test, body: {a: 1}, form: {a: 1}}
  - name: missing
    request: {method: POST, url: http://x.test, body_file: data/nope.bin}
  - name: missing_part
    request: {method: POST, url: http://x.test, multipart: {f: {file: nope.png}}}
  - name: get_form
    request: {url: http://x.test, form: {a: 1}}
`,
    );
    const run = await runCli(["validate", `${dir}/bad.yaml`]);
    assert.equal(run.code, 2);
    const lines = (run.stdout + run.stderr).split("\n").filter((l) => / error\[/.test(l))
      .map((l) => l.replace(`${dir}/`, ""));
    assert.deepEqual(lines, [
      'bad.yaml:4:63 error[conflicting-keys]: "form" and "body" of step "two" both give the request a body.',
      'bad.yaml:6:60 error[file-read]: Could not read "data/nope.bin" for "body_file" of step "missing": no such file.',
      'bad.yaml:8:71 error[file-read]: Could not read "nope.png" for the file of part "f": no such file.',
      "bad.yaml:10:35 error[bad-method]: A GET request cannot have a body: the HTTP client refuses to send one.",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
