/**
 * Data rows hold what vars hold (issue 54, item 6): a row value may be a map
 * or a list, from inline rows, a JSON file or a YAML file, read whole
 * (`${vars.user}` sends the map) or by field (`${vars.user.name}`), its
 * strings' `${…}` expanded and checked like a var's. A CSV cell stays the
 * text it is. Each run through the CLI against a server this test starts.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

/** A server that keeps each request's path and JSON body. */
function serve() {
  const seen: { path: string; body: unknown }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const text = await req.text();
    seen.push({ path: url.pathname + url.search, body: text === "" ? null : JSON.parse(text) });
    return Response.json({ ok: true });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, seen, close: () => server.shutdown() };
}

/** A flow that sends row vars `user` and `tags` whole in the body and a field of `user` in the URL. */
const flowText = (url: string, data: string, vars: string) =>
  `name: users
vars:
  base: "${url}"
${vars}data: ${data}
steps:
  - name: create
    request:
      method: POST
      url: "\${vars.base}/users/\${vars.user.name}"
      body: {user: "\${vars.user}", tags: "\${vars.tags}"}
    assert: {status: 200}
`;

async function runIn(files: Record<string, string>) {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-rows-" });
  for (const [name, text] of Object.entries(files)) {
    await Deno.writeTextFile(`${dir}/${name}`, text);
  }
  const validate = await runCli(["validate", `${dir}/f.yaml`]);
  const run = await runCli(["run", `${dir}/f.yaml`, "--report-json", `${dir}/r.json`]);
  const report = run.code === 0 ? JSON.parse(await Deno.readTextFile(`${dir}/r.json`)) : undefined;
  await Deno.remove(dir, { recursive: true });
  return { validate, run, report };
}

const bySeen = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);

Deno.test("inline rows hold maps and lists, read whole and by field, their ${…} expanded", async () => {
  const api = serve();
  try {
    const data = `
  - {user: {name: ann, role: admin, home: "\${vars.base}/ann", ids: [1, 2]}, tags: [a, b]}
  - {user: {name: bo, role: viewer, home: "\${vars.base}/bo", ids: []}, tags: [c]}`;
    const { validate, run } = await runIn({ "f.yaml": flowText(api.url, data, "") });
    assert.equal(validate.code, 0, validate.stdout + validate.stderr);
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual(api.seen.sort(bySeen), [
      {
        path: "/users/ann",
        body: {
          user: { name: "ann", role: "admin", home: `${api.url}/ann`, ids: [1, 2] },
          tags: ["a", "b"],
        },
      },
      {
        path: "/users/bo",
        body: { user: { name: "bo", role: "viewer", home: `${api.url}/bo`, ids: [] }, tags: ["c"] },
      },
    ]);
  } finally {
    await api.close();
  }
});

Deno.test("JSON and YAML data files hold maps and lists; a CSV cell stays text", async () => {
  const api = serve();
  const vars = '  user: {name: ""}\n  tags: []\n';
  try {
    const json = await runIn({
      "f.yaml": flowText(api.url, "{file: rows.json}", vars),
      "rows.json": JSON.stringify([
        { user: { name: "cy", home: "${vars.base}/cy", n: { deep: true } }, tags: ["j"] },
      ]),
    });
    assert.equal(json.run.code, 0, json.run.stdout + json.run.stderr);
    const yaml = await runIn({
      "f.yaml": flowText(api.url, "{file: rows.yaml}", vars),
      "rows.yaml": "- user: {name: dee, ids: [3]}\n  tags: [y, z]\n",
    });
    assert.equal(yaml.run.code, 0, yaml.run.stdout + yaml.run.stderr);
    assert.deepEqual(api.seen, [
      {
        path: "/users/cy",
        body: { user: { name: "cy", home: `${api.url}/cy`, n: { deep: true } }, tags: ["j"] },
      },
      { path: "/users/dee", body: { user: { name: "dee", ids: [3] }, tags: ["y", "z"] } },
    ]);
    api.seen.length = 0;
    // CSV has no maps: the cell is the text it holds, sent as a JSON string.
    const csv = await runIn({
      "f.yaml": flowText(api.url, "{file: rows.csv}", '  user: ""\n  tags: ""\n')
        .replace("/users/${vars.user.name}", "/csv"),
      "rows.csv": 'user,tags\n"{""name"": ""eve""}",x\n',
    });
    assert.equal(csv.run.code, 0, csv.run.stdout + csv.run.stderr);
    assert.deepEqual(api.seen, [{ path: "/csv", body: { user: '{"name": "eve"}', tags: "x" } }]);
  } finally {
    await api.close();
  }
});

Deno.test("a row's map is checked like a var's: its ${…} and its size", async () => {
  const inline = await runIn({
    "f.yaml": flowText(
      "http://127.0.0.1:9",
      '[{user: {name: ann, home: "${vars.nope}"}, tags: [a]}]',
      "",
    ),
  });
  assert.equal(inline.validate.code, 2, inline.validate.stdout + inline.validate.stderr);
  assert.match(inline.validate.stdout + inline.validate.stderr, /f\.yaml:4:\d+.*nope/);
  const deep = "[".repeat(70) + "]".repeat(70);
  const file = await runIn({
    "f.yaml": flowText("http://127.0.0.1:9", "{file: rows.json}", "  user: {}\n  tags: []\n"),
    "rows.json": `[{"user": {"name": "x"}, "tags": ${deep}}]`,
  });
  assert.equal(file.validate.code, 2);
  assert.match(
    file.validate.stdout + file.validate.stderr,
    /"tags" in row 1 is nested more than 64 levels deep/,
  );
  const fileRef = await runIn({
    "f.yaml": flowText("http://127.0.0.1:9", "{file: rows.json}", "  user: {}\n  tags: []\n"),
    "rows.json": '[{"user": {"name": "x", "a": ["${vars.nope}"]}, "tags": []}]',
  });
  assert.equal(fileRef.validate.code, 2);
  assert.match(
    fileRef.validate.stdout + fileRef.validate.stderr,
    /Row 1 of the data file "rows.json", column "user": .*nope/,
  );
});
