/**
 * No `${…}` leaves flowrun as written (issue 40, item 1): data rows (inline
 * and from CSV/JSON files), map keys of bodies and typed fields (`status`)
 * are expanded, with the same reference checks as anywhere else; a place
 * that cannot take an expression is a positioned load problem.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { withFiles } from "../support/with_files.ts";

/** A server that records every request's query and body, and answers `?status=`. */
function recorder() {
  const seen: { query: string; body: string }[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    seen.push({ query: decodeURIComponent(url.search), body: await req.text() });
    return new Response("{}", { status: Number(url.searchParams.get("status") ?? 200) });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, seen, close: () => server.shutdown() };
}

const SETUP = `name: setup
steps:
  - name: noop
    request: {url: "\${ENV.BASE}/?setup"}
outputs:
  username: ann
`;

const ROW_FLOW = (data: string) =>
  `name: rows
vars: {n: "0"}
data: ${data}
steps:
  - name: get
    request: {url: "\${ENV.BASE}/?fav=\${vars.fav}&id=\${vars.run}&env=\${vars.x}&n=\${vars.n}"}
    assert: {status: 200}
`;

Deno.test("data rows: setup outputs, RUN_ID, ENV and --var in a row are expanded", async () => {
  const api = recorder();
  try {
    const inline = ROW_FLOW(
      '[{fav: "${setup.username}", run: "${RUN_ID}", x: "${ENV.X}", n: "${vars.k}"}]',
    );
    const csv = "fav,run,x,n\n${setup.username},${RUN_ID},${ENV.X},${vars.k}\n";
    const json =
      '[{"fav": "${setup.username}", "run": "${RUN_ID}", "x": "${ENV.X}", "n": "${vars.k}"}]';
    await withFiles({
      "setup.yaml": SETUP,
      "inline.yaml": inline,
      "csv.yaml": ROW_FLOW("{file: rows.csv}").replace(
        'vars: {n: "0"}',
        'vars: {n: "0", fav: "", run: "", x: ""}',
      ),
      "json.yaml": ROW_FLOW("{file: rows.json}").replace(
        'vars: {n: "0"}',
        'vars: {n: "0", fav: "", run: "", x: ""}',
      ),
      "yaml.yaml": ROW_FLOW("{file: rows.yml}").replace(
        'vars: {n: "0"}',
        'vars: {n: "0", fav: "", run: "", x: ""}',
      ),
      "rows.csv": csv,
      "rows.json": json,
      "rows.yml": '- {fav: "${setup.username}", run: "${RUN_ID}", x: "${ENV.X}", n: "${vars.k}"}\n',
    }, async (dir) => {
      for (const flow of ["inline.yaml", "csv.yaml", "json.yaml", "yaml.yaml"]) {
        api.seen.length = 0;
        const run = await runCli(
          [
            "run",
            `${dir}/${flow}`,
            "--setup",
            `${dir}/setup.yaml`,
            "--run-id",
            "R1",
            "--var",
            "k=7",
          ],
          { env: { BASE: api.url, X: "ex" } },
        );
        assert.equal(run.code, 0, `${flow}: ${run.stdout}${run.stderr}`);
        assert.deepEqual(
          api.seen.map((s) => s.query).filter((q) => q !== "?setup"),
          ["?fav=ann&id=R1&env=ex&n=7"],
          flow,
        );
      }
    });
  } finally {
    await api.close();
  }
});

Deno.test("data rows: an unknown name in a row is a positioned load problem, nothing is sent", async () => {
  const api = recorder();
  try {
    await withFiles({
      "inline.yaml": ROW_FLOW('[{fav: "${setup.username}", run: a, x: b, n: "1"}]'),
      "csv.yaml": ROW_FLOW("{file: rows.csv}").replace(
        'vars: {n: "0"}',
        'vars: {n: "0", fav: "", run: "", x: ""}',
      ),
      "rows.csv": "fav,run,x,n\na,b,${ENV.NOT_SET_ANYWHERE_40},1\n",
    }, async (dir) => {
      const inline = await runCli(["run", `${dir}/inline.yaml`], { env: { BASE: api.url } });
      assert.equal(inline.code, 2, inline.stdout + inline.stderr);
      assert.match(inline.stderr + inline.stdout, /inline\.yaml:3:\d+/);
      assert.match(inline.stderr + inline.stdout, /unknown-output/);
      const csv = await runCli(["run", `${dir}/csv.yaml`], { env: { BASE: api.url } });
      assert.equal(csv.code, 2, csv.stdout + csv.stderr);
      assert.match(csv.stderr + csv.stdout, /csv\.yaml:3:\d+/);
      assert.match(csv.stderr + csv.stdout, /NOT_SET_ANYWHERE_40/);
      assert.match(csv.stderr + csv.stdout, /row 1/i);
      assert.deepEqual(api.seen, []);
    });
  } finally {
    await api.close();
  }
});

Deno.test("data rows: a whole-expression value keeps its type, $${ stays literal", async () => {
  const api = recorder();
  try {
    const flow = `name: typed
vars: {code: 201}
data: [{want: "\${vars.code}", text: "$\${x}"}]
steps:
  - name: post
    request: {method: POST, url: "\${ENV.BASE}/?status=201", body: {want: "\${vars.want}", text: "\${vars.text}"}}
    assert: {status: 201}
`;
    await withFiles({ "f.yaml": flow }, async (dir) => {
      const run = await runCli(["run", `${dir}/f.yaml`, "--var", "code=201"], {
        env: { BASE: api.url },
      });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.deepEqual(JSON.parse(api.seen[0].body), { want: "201", text: "${x}" });
    });
  } finally {
    await api.close();
  }
});

Deno.test("body map keys are expanded, at any depth", async () => {
  const api = recorder();
  try {
    const flow = `name: keys
vars: {pkg: demo, version: "1.0.0"}
steps:
  - name: put
    request:
      method: PUT
      url: "\${ENV.BASE}/"
      body:
        _attachments:
          "\${vars.pkg}-\${vars.version}.tgz": {length: 3}
        "\${vars.pkg}": "\${vars.version}"
        "$\${kept}": 1
    assert: {status: 200}
`;
    await withFiles({ "f.yaml": flow }, async (dir) => {
      const run = await runCli(["run", `${dir}/f.yaml`], { env: { BASE: api.url } });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      assert.deepEqual(JSON.parse(api.seen[0].body), {
        _attachments: { "demo-1.0.0.tgz": { length: 3 } },
        demo: "1.0.0",
        "${kept}": 1,
      });
    });
  } finally {
    await api.close();
  }
});

Deno.test("body map keys: an unknown name in a key is a positioned load problem", async () => {
  const flow = `name: keys
steps:
  - name: put
    request:
      method: PUT
      url: "http://127.0.0.1:9/"
      body: {"\${vars.nope}.tgz": 1}
`;
  await withFiles({ "f.yaml": flow }, async (dir) => {
    const run = await runCli(["run", `${dir}/f.yaml`]);
    assert.equal(run.code, 2, run.stdout + run.stderr);
    assert.match(run.stdout + run.stderr, /f\.yaml:7:\d+/);
    assert.match(run.stdout + run.stderr, /vars\.nope/);
  });
});

Deno.test("status: an expression is expanded, alone and in anyOf", async () => {
  const api = recorder();
  try {
    const flow = `name: status
vars: {expect: 401}
steps:
  - name: one
    request: {url: "\${ENV.BASE}/?status=401"}
    assert: {status: "\${vars.expect}"}
  - name: any
    request: {url: "\${ENV.BASE}/?status=404"}
    assert: {status: {anyOf: [200, "\${vars.missing}"]}}
`;
    await withFiles({ "f.yaml": flow }, async (dir) => {
      const ok = await runCli(["run", `${dir}/f.yaml`, "--var", "missing=404"], {
        env: { BASE: api.url },
      });
      assert.equal(ok.code, 0, ok.stdout + ok.stderr);
      const wrong = await runCli([
        "run",
        `${dir}/f.yaml`,
        "--var",
        "missing=405",
        "--var",
        "expect=401",
      ], {
        env: { BASE: api.url },
      });
      assert.equal(wrong.code, 1, wrong.stdout + wrong.stderr);
      assert.match(wrong.stdout, /405/);
      const bad = await runCli(["run", `${dir}/f.yaml`, "--var", "missing=abc"], {
        env: { BASE: api.url },
      });
      assert.notEqual(bad.code, 0, bad.stdout + bad.stderr);
      assert.match(bad.stdout + bad.stderr, /abc/);
    });
  } finally {
    await api.close();
  }
});

Deno.test("a value read when the flow loads refuses an expression, at its column; nothing is sent", async () => {
  const api = recorder();
  try {
    const flow = `name: refused
vars: {t: 5s, n: 3, f: true, ct: text/plain, file: a.txt}
steps:
  - name: opts
    request:
      url: "\${ENV.BASE}/"
      method: POST
      multipart: {doc: {file: a.txt, content_type: "\${vars.ct}", filename: "x-\${vars.file}"}}
  - name: raw
    request: {url: "\${ENV.BASE}/", method: POST, body_file: "\${vars.file}", query: {"\${vars.n}": 1}}
    options: {timeout: "\${vars.t}", follow_redirects: "\${vars.f}", retry: {count: "\${vars.n}"}}
  - name: inc
    include: "\${vars.file}.yaml"
  - name: names
    request: {url: "\${ENV.BASE}/", headers: {"x-\${vars.n}": a}, cookies: {"\${vars.n}": b}}
    assert: {headers: {"\${vars.n}": a}, cookies: {"c\${vars.n}": {exists: true}}}
`;
    await withFiles({ "f.yaml": flow, "a.txt": "a" }, async (dir) => {
      const run = await runCli(["run", `${dir}/f.yaml`], { env: { BASE: api.url } });
      assert.equal(run.code, 2, run.stdout + run.stderr);
      const out = (run.stdout + run.stderr).replaceAll(`${dir}/`, "");
      const problems = out.split("\n").filter((l) => / error\[/.test(l));
      assert.deepEqual(problems.map((p) => p.replace(/ error.*/, "")), [
        "f.yaml:8:53",
        "f.yaml:8:79",
        "f.yaml:10:62",
        "f.yaml:10:86",
        "f.yaml:11:25",
        "f.yaml:11:56",
        "f.yaml:11:84",
        "f.yaml:13:15",
        // A request header's name expands (15:49); an asserted header's is read when loading.
        "f.yaml:15:76",
        "f.yaml:16:25",
        "f.yaml:16:53",
      ], out);
      for (const p of problems) {
        assert.match(p, /error\[expression-not-allowed\]: .*\$\{vars\.\w+\}/);
      }
      assert.match(
        out,
        /hint: Write the value itself here\. Expressions are expanded in url, headers, form and multipart fields \(names and values\)/,
      );
      assert.deepEqual(api.seen, []);
    });
  } finally {
    await api.close();
  }
});
