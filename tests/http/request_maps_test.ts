/**
 * Headers and query parameters handed whole to an included flow through
 * `with:` and sent as `headers: "${vars.headers}"` / `query: "${vars.query}"`:
 * the bytes that arrive, secrets masked in every output, and every way the
 * map can be wrong — text around the expression at load time (one problem,
 * validate as run), not a map or a bad name when the request is made (an
 * error of the step, nothing sent).
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

const TOKEN = "tok-5e4d3c2b1a09";

function serve() {
  const got: { path: string; search: string; headers: Record<string, string> }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    got.push({ path: url.pathname, search: url.search, headers: Object.fromEntries(req.headers) });
    return Response.json({ ok: true });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, got, close: () => server.shutdown() };
}

// null defaults take a value of any shape, so the checks when the request is made are reached.
const INCLUDED = `name: get
vars:
  headers: null
  query: null
steps:
  - name: get
    request:
      url: "\${ENV.BASE}/items"
      headers: "\${vars.headers}"
      query: "\${vars.query}"
`;

function caller(withText: string): string {
  return `name: caller
steps:
  - name: fetch
    include: ../common/get.yaml
    with: ${withText}
`;
}

async function workspace(flow: string): Promise<string> {
  const dir = await Deno.makeTempDir();
  await Deno.mkdir(`${dir}/flows`);
  await Deno.mkdir(`${dir}/common`);
  await Deno.writeTextFile(`${dir}/common/get.yaml`, INCLUDED);
  await Deno.writeTextFile(`${dir}/flows/caller.yaml`, flow);
  return dir;
}

Deno.test("a map handed through with: is sent whole as headers and as query parameters", async () => {
  const api = serve();
  const dir = await workspace(caller(
    `{headers: {Authorization: "Bearer \${ENV.TOKEN}", x-page: 2, x-none: null}, ` +
      `query: {tag: [a, "b c"], limit: 10, flag: null}}`,
  ));
  try {
    const run = await runCli(["run", "flows", "-vv", "--out-dir", "out"], {
      cwd: dir,
      env: { BASE: api.url, TOKEN },
    });
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.equal(api.got.length, 1);
    const [got] = api.got;
    assert.equal(got.search, "?tag=a&tag=b%20c&limit=10&flag");
    assert.equal(got.headers.authorization, `Bearer ${TOKEN}`);
    assert.equal(got.headers["x-page"], "2");
    assert.equal(got.headers["x-none"], undefined, "null leaves a header out");
    for (
      const file of ["out/report.json", "out/junit.xml", "out/run.log.ndjson", "out/report.html"]
    ) {
      assert.ok(!(await Deno.readTextFile(`${dir}/${file}`)).includes(TOKEN), file);
    }
    assert.ok(!run.stdout.includes(TOKEN), run.stdout);
    // A map var left at its null default sends none.
    await Deno.writeTextFile(`${dir}/flows/caller.yaml`, caller(`{headers: {x-a: "1"}}`));
    const bare = await runCli(["run", "flows"], { cwd: dir, env: { BASE: api.url } });
    assert.equal(bare.code, 0, bare.stdout + bare.stderr);
    assert.equal(api.got[1].search, "");
    assert.equal(api.got[1].headers["x-a"], "1");
    assert.match(run.stdout, /> Authorization: \*\*\*\n/);
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a map that cannot be sent is an error of the step, nothing sent", async () => {
  const cases: [string, RegExp][] = [
    [
      `{headers: "x-a: 1"}`,
      /The headers "\$\{vars\.headers\}" are the string "x-a: 1", not a map of names to values\./,
    ],
    [`{headers: {"x a": "1"}}`, /cannot be sent: header name "x a" is not an HTTP token/],
    [`{headers: {x-a: {b: 1}}}`, /cannot be sent: header "x-a" is a map, not a single value/],
    [`{headers: {x-a: "1", X-A: "2"}}`, /cannot be sent: header "X-A" is given twice/],
    [
      `{headers: {x-a: "é✓"}}`,
      /cannot be sent: the value of header "x-a" holds a character past Latin-1/,
    ],
    [`{query: [a, b]}`, /The query parameters "\$\{vars\.query\}" are a list, not a map/],
    [
      `{query: {a: {b: 1}}}`,
      /cannot be sent: parameter "a" is a map: a parameter is a value or a list of values/,
    ],
  ];
  for (const [withText, message] of cases) {
    const api = serve();
    const dir = await workspace(caller(withText));
    try {
      const run = await runCli(["run", "flows", "--report-json", "r.json"], {
        cwd: dir,
        env: { BASE: api.url },
      });
      assert.equal(run.code, 1, `${withText}: ${run.stdout}${run.stderr}`);
      assert.match(run.stdout, message, withText);
      assert.equal(api.got.length, 0, withText);
      const step = JSON.parse(await Deno.readTextFile(`${dir}/r.json`)).flows[0].steps[0];
      assert.equal(step.status, "error", withText);
    } finally {
      await api.close();
      await Deno.remove(dir, { recursive: true });
    }
  }
});

Deno.test("text around the expression is one problem at load time, in validate as in run", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.writeTextFile(
    `${dir}/f.yaml`,
    `name: f\nvars: {h: {}}\nsteps:\n  - name: s\n    request: {url: "http://127.0.0.1:9/", headers: "x-\${vars.h}"}\n`,
  );
  try {
    for (const command of ["run", "validate"]) {
      const got = await runCli([command, "f.yaml"], { cwd: dir });
      assert.equal(got.code, 2, got.stdout + got.stderr);
      const problems = (got.stdout + got.stderr).match(/error\[/g) ?? [];
      assert.equal(problems.length, 1, got.stdout + got.stderr);
      assert.match(
        got.stdout + got.stderr,
        /f\.yaml:5:52 error\[wrong-type\]: Expected the headers of step "s" to be a map, or one expression that gives a map, got the text "x-\$\{vars\.h\}"\./,
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a header name from an expression is sent as it evaluates; a name that is no token fails the step, nothing sent", async () => {
  const server = serve();
  const flow = `name: named
vars:
  device: 2EWQW
  bad: "a b"
steps:
  - name: csrf
    request:
      url: "\${ENV.BASE}/items"
      headers: {"x-csrf-token-\${vars.device}": "\${ENV.CSRF}"}
  - name: broken
    request:
      url: "\${ENV.BASE}/broken"
      headers: {"x-\${vars.bad}": v}
`;
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/f.yaml`, flow);
    const run = await runCli(["run", `${dir}/f.yaml`, "--report-json", `${dir}/r.json`], {
      env: { BASE: server.url, CSRF: TOKEN },
    });
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.deepEqual(server.got.map((g) => g.path), ["/items"], "the broken step sent nothing");
    assert.equal(server.got[0].headers["x-csrf-token-2ewqw"], TOKEN);
    const report = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const text = JSON.stringify(report);
    assert.match(text, /x-\$\{vars\.bad\}\\" gives \\"x-a b\\", which is not an HTTP token/);
    assert.ok(!text.includes(TOKEN), "the CSRF value from the environment is masked");
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
