/**
 * Tags: flows declare `tags`, `--tag` selects them by an expression of
 * `and`, `or`, `not` and parentheses; a bad expression or a selection of
 * nothing is an exit-2 error with the fix.
 */
import assert from "node:assert/strict";
import { UsageError } from "../../lib/model/errors.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { compileTags } from "../../lib/select/tags.ts";
import { runCli } from "../support/cli.ts";
import "../support/engines.ts";

Deno.test("tag expressions: precedence, parentheses, commas", () => {
  const cases: [string, string[], boolean][] = [
    ["smoke", ["smoke"], true],
    ["smoke and not slow", ["smoke", "slow"], false],
    ["not slow and smoke", ["smoke"], true],
    ["a or b and c", ["a"], true], // and binds tighter than or
    ["(a or b) and c", ["a"], false],
    ["smoke,critical", ["critical"], true],
    ["not not x", ["x"], true],
    ["team:payments and api/v2", ["team:payments", "api/v2"], true],
  ];
  for (const [expression, tags, expected] of cases) {
    assert.equal(compileTags(expression)(new Set(tags)), expected, expression);
  }
  for (
    const [expression, fragment] of [
      ["smoke and", "at character 10: a tag name is missing at the end"],
      ["(a or b", 'a ")" is missing'],
      ["a b", 'expected "and", "or" or the end, got "b"'],
      ["and", 'expected a tag name, got "and"'],
      ["a & b", '"&" cannot be part of a tag name'],
    ]
  ) {
    assert.throws(() => compileTags(expression), (e: unknown) => {
      assert.ok(e instanceof UsageError && e.code === "bad-tag", String(e));
      assert.ok((e as Error).message.includes(fragment), (e as Error).message);
      return true;
    });
  }
});

Deno.test("tags in a flow file are names, checked at load time", () => {
  const base = "name: f\nsteps:\n  - name: s\n    request: {url: http://x.test}\n";
  assert.deepEqual(loadFlow(`${base}tags: [smoke, api]\n`, "f.yaml").flow?.tags, ["smoke", "api"]);
  const [p] = loadFlow(`${base}tags: [smoke, "two words", not]\n`, "f.yaml").problems;
  assert.equal(p.code, "bad-name");
  assert.equal(loadFlow(`${base}tags: [smoke, "two words", not]\n`, "f.yaml").problems.length, 2);
});

Deno.test("--tag selects flows; nothing selected and bad expressions exit 2", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-tags-" });
  try {
    const flow = (name: string, tags: string) =>
      Deno.writeTextFile(
        `${dir}/${name}.yaml`,
        `name: ${name}\ntags: ${tags}\nsteps:\n  - name: s\n    request: {url: "http://127.0.0.1:9/"}\n`,
      );
    await flow("login", "[smoke, api]");
    await flow("export", "[api, slow]");
    await flow("page", "[ui]");
    const list = await runCli(["run", dir, "--tag", "api and not slow", "--list"]);
    assert.equal(list.code, 0, list.stderr);
    assert.deepEqual(list.stdout.trim().split("\n").map((l) => l.split("/").at(-1)), [
      "login.yaml",
    ]);
    const either = await runCli(["run", dir, "--tag", "ui, slow", "--list"]);
    assert.deepEqual(either.stdout.trim().split("\n").map((l) => l.split("/").at(-1)), [
      "export.yaml",
      "page.yaml",
    ]);
    const none = await runCli(["run", dir, "--tag", "nightly"]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /--tag "nightly" matched none of the 3 flow files/);
    const bad = await runCli(["run", dir, "--tag", "api and"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /^error\[bad-tag\]: Invalid --tag "api and" at character 8/m);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("step tags: --tag runs the matching steps, what they need, and their cleanup", async () => {
  const sent: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    sent.push(`${req.method} ${path}`);
    if (path === "/login") return Response.json({ token: "t" });
    if (req.method === "POST") return Response.json({ id: 7 }, { status: 201 });
    return Response.json({ items: [] });
  });
  const url = `http://127.0.0.1:${server.addr.port}`;
  const dir = await Deno.makeTempDir({ prefix: "flowrun-step-tags-" });
  try {
    await Deno.writeTextFile(
      `${dir}/items.yaml`,
      `name: items
tags: [api]
steps:
  - name: login
    request: {method: POST, url: "${url}/login"}
    capture: {token: $.json.token}
  - name: create
    tags: [write]
    request: {method: POST, url: "${url}/items", headers: {authorization: "Bearer \${steps.login.token}"}}
    capture: {id: $.json.id}
  - name: list
    tags: [read]
    request: {url: "${url}/items", headers: {authorization: "Bearer \${steps.login.token}"}}
  - name: delete
    always: true
    request: {method: DELETE, url: "${url}/items/\${steps.create.id}"}
`,
    );
    await Deno.writeTextFile(
      `${dir}/other.yaml`,
      `name: other\nsteps:\n  - name: s\n    tags: [ui]\n    request: {url: "${url}/ui"}\n`,
    );
    const read = await runCli(["run", dir, "--tag", "read", "--report-json", `${dir}/r.json`]);
    assert.equal(read.code, 0, read.stdout + read.stderr);
    assert.deepEqual(sent, ["POST /login", "GET /items"]);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    assert.deepEqual(report.flows.map((f: { name: string }) => f.name), ["items"]);
    assert.deepEqual(report.flows[0].steps.map((s: { name: string }) => s.name), ["login", "list"]);

    sent.length = 0;
    const write = await runCli(["run", dir, "--tag", "write and not read"]);
    assert.equal(write.code, 0, write.stdout + write.stderr);
    assert.deepEqual(sent, ["POST /login", "POST /items", "DELETE /items/7"]);

    sent.length = 0;
    const all = await runCli(["run", dir, "--tag", "api or ui"]);
    assert.equal(all.code, 0);
    assert.equal(sent.length, 5, sent.join());

    // A step's tags are checked like a flow's.
    await Deno.writeTextFile(
      `${dir}/other.yaml`,
      `name: other\nsteps:\n  - name: s\n    tags: [two words]\n    request: {url: "${url}/ui"}\n`,
    );
    const bad = await runCli(["validate", `${dir}/other.yaml`]);
    assert.equal(bad.code, 2);
    assert.match(
      bad.stdout + bad.stderr,
      /other\.yaml:4:12 error\[bad-name\]: Tag "two words" cannot be selected/,
    );
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
