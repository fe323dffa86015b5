/**
 * Including flow files: a step runs another flow with `with` values, reads
 * its outputs like captures, reports its steps as `<step> › <its step>` at
 * their own file and position; includes nest; cleanup includes run after a
 * failure; every misuse is a positioned problem before anything is sent.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { runCli } from "../support/cli.ts";
import "../support/engines.ts";

const TOKEN = "tok-8c41d2e9f07a5b36";

function serve() {
  const sent: string[] = [];
  const items = new Set<string>();
  let next = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    sent.push(`${req.method} ${url.pathname}`);
    if (url.pathname === "/csrf") return Response.json({ csrf: "c-1" });
    if (url.pathname === "/login") {
      const body = await req.json();
      if (body.csrf !== "c-1" || body.password !== "pw") {
        return Response.json({ error: "bad login" }, { status: 401 });
      }
      return Response.json({ t: `${TOKEN}-${body.user}` });
    }
    if (!req.headers.get("authorization")?.startsWith(`Bearer ${TOKEN}-`)) {
      return Response.json({ error: "unauthorized" }, { status: 401 });
    }
    if (req.method === "POST") {
      const id = `item-${++next}`;
      items.add(id);
      return Response.json({ id }, { status: 201 });
    }
    if (req.method === "DELETE") {
      items.delete(url.pathname.split("/").at(-1)!);
      return new Response(null, { status: 204 });
    }
    if (url.pathname.startsWith("/broken")) return Response.json({ ok: false }, { status: 500 });
    return Response.json({ user: req.headers.get("authorization")!.split("-").at(-1) });
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}`,
    sent,
    items,
    close: () => server.shutdown(),
  };
}

async function files(root: string, tree: Record<string, string>) {
  for (const [path, text] of Object.entries(tree)) {
    await Deno.mkdir(`${root}/${path}`.replace(/\/[^/]*$/, ""), { recursive: true });
    await Deno.writeTextFile(`${root}/${path}`, text);
  }
}

/** A shared login (which includes a CSRF fetch) and a shared delete, beside the flows. */
function shared(url: string, password = "pw"): Record<string, string> {
  return {
    "common/csrf.yaml": `name: csrf
steps:
  - name: fetch
    request: {url: "${url}/csrf"}
    capture: {value: $.json.csrf}
outputs:
  value: "\${steps.fetch.capture.value}"
`,
    "common/login.yaml": `name: login
vars:
  user: ann
  password: "${password}"
steps:
  - name: csrf
    include: csrf.yaml
  - name: post
    request:
      method: POST
      url: "${url}/login"
      body: {user: "\${vars.user}", password: "\${vars.password}", csrf: "\${steps.csrf.value}"}
    capture: {t: $.json.t}
    assert: {status: 200}
outputs:
  token: "\${steps.post.capture.t}"
`,
    "common/delete.yaml": `name: delete
vars:
  token: ""
  id: ""
steps:
  - name: delete
    request:
      method: DELETE
      url: "${url}/items/\${vars.id}"
      headers: {authorization: "Bearer \${vars.token}"}
    assert: {status: 204}
`,
  };
}

function flow(url: string, name: string, user: string, extra = ""): string {
  return `name: ${name}
steps:
  - name: auth
    include: ../common/login.yaml
    with: {user: ${user}}
  - name: create
    request:
      method: POST
      url: "${url}/items"
      headers: {authorization: "Bearer \${steps.auth.token}"}
    capture: {id: $.json.id}
  - name: me
    request:
      url: "${url}/me"
      headers: {authorization: "Bearer \${steps.auth.capture.token}"}
    assert:
      json: [{path: $.json.user, equals: ${user}}]
${extra}  - name: cleanup
    include: ../common/delete.yaml
    with: {token: "\${steps.auth.token}", id: "\${steps.create.id}"}
    always: true
`;
}

Deno.test("an included flow runs with its with values; its outputs read like captures", async () => {
  const api = serve();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-include-" });
  try {
    await files(dir, {
      ...shared(api.url),
      "flows/ann.yaml": flow(api.url, "ann", "ann"),
      "flows/bob.yaml": flow(api.url, "bob", "bob"),
      "flows/cy.yaml": flow(api.url, "cy", "cy"),
    });
    const run = await runCli([
      "run",
      `${dir}/flows`,
      "--jobs",
      "3",
      "--report-json",
      `${dir}/r.json`,
      "--report-junit",
      `${dir}/j.xml`,
      "--manifest",
      `${dir}/m.json`,
      "--console",
      "detailed",
    ]);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(api.items.size, 0, "every cleanup ran");
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const steps = report.flows[1].steps;
    assert.deepEqual(
      steps.map((s: { name: string; file?: string; line: number }) => [s.name, s.file, s.line]),
      [
        ["auth › csrf › fetch", `${dir}/common/csrf.yaml`, 3],
        ["auth › post", `${dir}/common/login.yaml`, 8],
        ["create", undefined, 6],
        ["me", undefined, 12],
        ["cleanup › delete", `${dir}/common/delete.yaml`, 6],
      ],
    );
    assert.ok(!JSON.stringify(report).includes(TOKEN), "an output named token is secret");
    const junit = await Deno.readTextFile(`${dir}/j.xml`);
    assert.match(junit, /<testcase classname="[^"]*flows\/bob" name="auth › post"/);
    assert.match(run.stdout, /✔ auth › csrf › fetch/);
    // The included files are part of what the run ran: the manifest has their checksums.
    const manifest = JSON.parse(await Deno.readTextFile(`${dir}/m.json`));
    const listed = manifest.flows.map((f: { file: string }) => f.file.replace(`${dir}/`, ""));
    for (const f of ["common/login.yaml", "common/csrf.yaml", "common/delete.yaml"]) {
      assert.ok(listed.includes(f), `${f} in ${listed}`);
    }
    assert.equal(listed.length, 6);
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a failure inside an include stops the flow, names the included file, and cleanup runs", async () => {
  const api = serve();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-include-" });
  try {
    const broken =
      `  - name: broken\n    request: {url: "${api.url}/broken", headers: {authorization: "Bearer \${steps.auth.token}"}}\n    assert: {status: 200}\n  - name: after\n    include: ../common/login.yaml\n`;
    await files(dir, {
      ...shared(api.url),
      "flows/a.yaml": flow(api.url, "a", "ann", broken),
    });
    const run = await runCli(["run", `${dir}/flows`, "--report-json", `${dir}/r.json`]);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.equal(api.items.size, 0, "the cleanup include ran after the failure");
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const steps = report.flows[0].steps;
    assert.deepEqual(
      steps.map((s: { name: string; status: string }) => [s.name, s.status]),
      [
        ["auth › csrf › fetch", "passed"],
        ["auth › post", "passed"],
        ["create", "passed"],
        ["me", "passed"],
        ["broken", "failed"],
        ["after › csrf › fetch", "skipped"],
        ["after › post", "skipped"],
        ["cleanup › delete", "passed"],
      ],
    );
    assert.equal(steps[5].message, 'Skipped because step "broken" failed.');

    // A failure inside the included flow points at the included file.
    await files(dir, shared(api.url, "wrong"));
    api.sent.length = 0;
    const bad = await runCli(["run", `${dir}/flows`, "--report-json", `${dir}/r.json`]);
    assert.equal(bad.code, 1);
    const failed = JSON.parse(await Deno.readTextFile(`${dir}/r.json`)).flows[0].steps;
    assert.deepEqual(failed.map((s: { status: string }) => s.status), [
      "passed",
      "failed",
      "skipped",
      "skipped",
      "skipped",
      "skipped",
      "skipped",
      "error",
    ]);
    assert.equal(failed[2].message, 'Skipped because step "auth › post" failed.');
    assert.match(bad.stdout, new RegExp(`at ${dir}/common/login\\.yaml:14:14`));
    // The cleanup could not get the id that was never created: an error of its own.
    assert.equal(failed[7].name, "cleanup");
    assert.match(failed[7].message, /could not be evaluated/);
    assert.deepEqual(api.sent, ["GET /csrf", "POST /login"]);
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("every misuse of include is a positioned problem before anything is sent", async () => {
  const api = serve();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-include-" });
  try {
    await files(dir, {
      ...shared(api.url),
      "common/broken.yaml":
        "name: broken\nsteps:\n  - name: p\n    request: {url: http://x.test, metod: GET}\n",
      "common/loop_a.yaml": "name: a\nsteps:\n  - name: b\n    include: loop_b.yaml\n",
      "common/loop_b.yaml": "name: b\nsteps:\n  - name: a\n    include: loop_a.yaml\n",
      "flows/a.yaml": `name: a
steps:
  - name: auth
    include: ../common/login.yaml
    with: {usr: bob}
  - name: me
    request:
      url: "${api.url}/me"
      headers: {authorization: "Bearer \${steps.auth.tokn}"}
  - name: missing
    include: ../common/nope.yaml
  - name: b1
    include: ../common/broken.yaml
  - name: b2
    include: ../common/broken.yaml
    request: {url: "${api.url}"}
  - name: looped
    include: ../common/loop_a.yaml
`,
    });
    const run = await runCli(["run", `${dir}/flows`]);
    assert.equal(run.code, 2);
    const problems = run.stderr.split("\n").filter((l) => / error\[/.test(l))
      .map((l) => l.replaceAll(`${dir}/`, ""));
    // One mistake, one problem: a broken included file and an include cycle are listed where they
    // are, not again at each include of a file they break (those flows do not run either).
    assert.deepEqual(problems, [
      'common/broken.yaml:4:35 error[unknown-key]: Unknown key "metod" in "request" of step "p".',
      'common/loop_b.yaml:4:14 error[include-cycle]: Including "loop_a.yaml" makes a cycle: common/loop_a.yaml → common/loop_b.yaml → common/loop_a.yaml.',
      'flows/a.yaml:5:12 error[unknown-input]: The included flow common/login.yaml has no var "usr" for "with" of step "auth" to set.',
      'flows/a.yaml:9:40 error[unknown-output]: Step "auth" includes common/login.yaml, which hands out no output "tokn" (in "${steps.auth.tokn}").',
      'flows/a.yaml:11:14 error[file-read]: Could not read the included file "../common/nope.yaml" (common/nope.yaml): no such file.',
      'flows/a.yaml:16:5 error[unknown-key]: Unknown key "request" in step "b2".',
    ]);
    assert.match(run.stderr, /hint: Did you mean "user"\?/);
    assert.match(run.stderr, /hint: Did you mean "token"\?/);
    assert.match(run.stderr, /hint: A step that includes a flow sends no request of its own/);
    assert.deepEqual(api.sent, [], "nothing was sent");
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a data-driven flow cannot be included; a flow loaded from text alone cannot include", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-include-" });
  try {
    await files(dir, {
      "common/rows.yaml":
        "name: rows\nvars: {n: 0}\ndata: [{n: 1}, {n: 2}]\nsteps:\n  - name: s\n    request: {url: http://x.test}\n",
      "flows/a.yaml": "name: a\nsteps:\n  - name: r\n    include: ../common/rows.yaml\n",
    });
    const run = await runCli(["validate", `${dir}/flows`]);
    assert.equal(run.code, 2);
    assert.match(
      run.stdout + run.stderr,
      /a\.yaml:4:14 error\[include-data\]: The included flow "rows" \(.*common\/rows\.yaml\) runs once per data row, so it cannot be included\./,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  const { problems } = loadFlow(
    "name: a\nsteps:\n  - name: r\n    include: common/login.yaml\n",
    "a.yaml",
  );
  assert.deepEqual(problems.map((p) => `${p.line}:${p.column} ${p.code}`), [
    "4:14 include-unavailable",
  ]);
  assert.match(problems[0].hint!, /Load flows with loadFlows/);
});
