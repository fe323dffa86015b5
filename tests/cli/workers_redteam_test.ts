/**
 * Red-team of `--workers`: a mixed suite (data rows inline and from a CSV
 * file, `foreach`, `--retries` with a flaky flow, a serial flow, setup and
 * teardown, a secret capture, a secret only the environment holds (never in
 * any output, raw, percent-encoded or in base64), flows a worker loads again,
 * odd answers: a refused connection, a timeout, binary, XML, a large body,
 * a redirect, a cookie) gives every artifact (JSON, JUnit, NDJSON log, HTML,
 * manifest, console) over three threads as on one, timings aside; and so
 * does a run whose failing steps use up the budget of those kept in full.
 */
import assert from "node:assert/strict";
import { notingServer, runWorkers, stableJson, stableJunit, suite } from "../support/workers.ts";

/** An environment variable's value, secret by its name, with characters each encoding changes. */
const ENV_SECRET = "env+/s3cr3t=value&0123";

/** A mixed suite against `base`; `/flaky` fails a flow's first attempt. */
function mixed(base: string): Record<string, string> {
  const files: Record<string, string> = {
    "setup.yaml": `name: setup
steps:
  - name: login
    request: {method: POST, url: "${base}/echo?session_token=sess-setup-0123456789"}
    capture: {session_token: $.json.session_token}
outputs:
  token: "\${steps.login.capture.session_token}"
`,
    "teardown.yaml": `name: teardown
steps:
  - name: bye
    request: {url: "${base}/echo?bye=\${setup.token}"}
`,
    "data/users.csv": "name,role\nann,admin\nbob,viewer\n",
    "flows/csv.yaml": `name: csv rows
data: {file: ../data/users.csv}
vars: {name: "", role: none}
steps:
  - name: get
    request: {url: "${base}/echo?role=\${vars.role}"}
    assert: {json: [{path: $.json..role, contains: admin}]}
`,
    "flows/each.yaml": `name: each
steps:
  - name: make
    foreach: [200, 500, 201]
    as: code
    request: {url: "${base}/echo?status=\${vars.code}"}
    assert: {status: 200}
`,
    "flows/flaky.yaml": `name: flaky
steps:
  - name: get
    request: {url: "${base}/flaky?run=one"}
    assert: {status: 200}
`,
    // A secret only the environment holds, read through main, echoed back in three encodings.
    "flows/env.yaml": `name: env secret
steps:
  - name: get
    request: {url: "${base}/echo?q=\${ENV.MY_API_TOKEN}&b=\${ENV.MY_B64}&status=500"}
    assert: {status: 200}
`,
    "flows/serial.yaml": `name: serial one
serial: true
steps:
  - name: get
    request: {url: "${base}/echo?serial=1&t=\${setup.token}"}
    assert: {json: [{path: $.json.serial, equals: "2"}]}
`,
  };
  for (let i = 0; i < 12; i++) {
    const n = String(i).padStart(2, "0");
    files[`flows/f${n}.yaml`] = `name: flow ${n}
steps:
  - name: get
    request: {url: "${base}/echo?n=${n}&status=${i % 5 === 2 ? 404 : 200}&api_key=k-${n}-abcdefgh"}
    capture: {n: $.json..n}
    assert: {status: 200}
  - name: again
    request: {url: "${base}/echo?again=\${steps.get.capture.n}"}
`;
  }
  return files;
}

/** Flows that meet odd answers: a refused connection, a timeout, binary, XML, a large body, a redirect, a cookie. */
function odd(base: string, refused: string): Record<string, string> {
  const step = (name: string, url: string, extra = "assert: {status: 200}") =>
    `name: ${name}\nsteps:\n  - name: get\n    request: {url: "${url}"}\n    ${extra}\n`;
  return {
    "flows/a_refused.yaml": step("refused", `${refused}/x`),
    "flows/b_timeout.yaml": step("timeout", `${base}/slow`, "options: {timeout: 100ms}"),
    "flows/c_binary.yaml": step("binary", `${base}/png`, "assert: {status: 201}"),
    "flows/d_xml.yaml": step(
      "xml",
      `${base}/xml`,
      'assert: {json: [{xpath: "//b", equals: "no"}]}',
    ),
    "flows/e_large.yaml": step(
      "large",
      `${base}/large`,
      "assert: {json: [{path: $.json.n, equals: 2}]}",
    ),
    "flows/f_redirect.yaml": step("redirect", `${base}/redirect`, "assert: {status: 200}"),
    "flows/g_cookie.yaml": `name: cookie
steps:
  - name: set
    request: {url: "${base}/cookie"}
  - name: send
    request: {url: "${base}/echo?status=500"}
    assert: {status: 200}
`,
  };
}

/**
 * The server: `/echo` answers its query (status from `?status=`), `/flaky`
 * fails a run's first call, the others answer as {@linkcode odd} needs.
 */
function server(calls: Map<string, number>) {
  const large = JSON.stringify({ n: 1, items: Array.from({ length: 20_000 }, (_, i) => ({ i })) });
  return notingServer(async ({ path, query }) => {
    if (path === "/flaky") {
      const run = query.get("run")!;
      calls.set(run, (calls.get(run) ?? 0) + 1);
      return Response.json({ call: calls.get(run) }, { status: calls.get(run) === 1 ? 503 : 200 });
    }
    if (path === "/slow") await new Promise((r) => setTimeout(r, 400));
    if (path === "/png") {
      const png = new Uint8Array(3000).map((_, i) => i % 256);
      return new Response(png, { headers: { "content-type": "image/png" } });
    }
    if (path === "/xml") {
      return new Response("<a><b>yes</b></a>", { headers: { "content-type": "application/xml" } });
    }
    if (path === "/large") {
      return new Response(large, { headers: { "content-type": "application/json" } });
    }
    if (path === "/redirect") {
      return new Response(null, { status: 302, headers: { location: "/echo" } });
    }
    if (path === "/cookie") {
      const cookie = "session=ck-0123456789abcdef; Path=/";
      return new Response("{}", { headers: { "set-cookie": cookie } });
    }
    return Response.json(Object.fromEntries(query), { status: Number(query.get("status") ?? 200) });
  });
}

/** The HTML report without what differs between two runs (times, durations). */
function stableHtml(text: string): unknown {
  const data = text.match(/<script type="application\/json" id="data">(.*?)<\/script>/s)![1];
  // The header's thread count says how the run went, not what it found.
  const page = text.replace(data, "").replace(/Worker threads <b>\d+<\/b>/, "Worker threads N")
    .replace(/\d{4}-\d\d-\d\d[ T][\d:.]+( UTC|Z)/g, "T")
    .replace(/\b\d+(\.\d+)? ?(ms|s)\b/g, "N ms");
  const flows = JSON.parse(
    data,
    (key, value) => ["d", "t", "date"].includes(key) || /^\d{4}-\d\d-\d\dT/.test(value) ? 0 : value,
  ).flows;
  return { page, flows: flows.map((f: unknown[]) => f.with(4, 0)) };
}

/**
 * The NDJSON log's lines by flow (a flow's lines are written together, from
 * its `flow_start`), in order, times aside: flows interleave as they end.
 */
function logByFlow(text: string): Record<string, string[]> {
  const byFlow: Record<string, string[]> = {};
  let flow = "";
  for (const line of text.trimEnd().split("\n")) {
    const { ts: _, duration_ms: __, started_at: ___, ...rest } = JSON.parse(line);
    if (rest.event === "flow_start") flow = `${rest.file} ${rest.name}`;
    if (rest.event === "run_start" || rest.event === "run_end") flow = "";
    (byFlow[flow] ??= []).push(JSON.stringify(rest));
  }
  return byFlow;
}

/** The console's blocks, one per flow (printed as flows end), sorted; then its recap. */
function blocks(stdout: string): string[] {
  const [run, recap] = stdout.split("\nFailures:\n");
  return [...run.split(/\n(?=[✔✘⚠○] )/).sort(), recap];
}

Deno.test("every artifact of a mixed suite over three threads is that of one thread", async () => {
  const calls = new Map<string, number>();
  const api = server(calls);
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const refused = `http://127.0.0.1:${(closed.addr as Deno.NetAddr).port}`;
  closed.close();
  const dir = await suite({ ...mixed(api.base), ...odd(api.base, refused) });
  try {
    const outputs = async (workers: string) => {
      calls.clear();
      const run = await runWorkers(dir, workers, "3", [
        "--retries",
        "1",
        "--setup",
        "setup.yaml",
        "--teardown",
        "teardown.yaml",
        "--cookie-jar",
        "--run-id",
        "same",
        "--out-dir",
        `out${workers}`,
      ], { MY_API_TOKEN: ENV_SECRET, MY_B64: btoa(ENV_SECRET) });
      const out = `${dir}/out${workers}`;
      let all = run.stdout + run.stderr;
      for await (const file of Deno.readDir(out)) {
        all += await Deno.readTextFile(`${out}/${file.name}`);
      }
      for (const form of [ENV_SECRET, encodeURIComponent(ENV_SECRET), btoa(ENV_SECRET)]) {
        assert.ok(!all.includes(form), `${form} in an output of --workers ${workers}`);
      }
      const manifest = JSON.parse(await Deno.readTextFile(`${out}/manifest.json`));
      return {
        code: run.code,
        json: stableJson(await Deno.readTextFile(`${out}/report.json`)),
        junit: stableJunit(await Deno.readTextFile(`${out}/junit.xml`)),
        html: stableHtml(await Deno.readTextFile(`${out}/report.html`)),
        log: logByFlow(await Deno.readTextFile(`${out}/run.log.ndjson`)),
        manifest: {
          ...manifest,
          started_at: 0,
          ended_at: 0,
          command: 0,
          artifacts: manifest.artifacts.map((a: { path: string }) => a.path.replace(/^out\d/, "")),
        },
        stdout: run.stdout.replace(/\b\d+(\.\d+)? ?(ms|s)\b/g, "N ms"),
        stderr: run.stderr,
      };
    };
    const one = await outputs("1");
    const three = await outputs("3");
    assert.equal(three.code, one.code, three.stderr);
    assert.deepEqual(three.json, one.json);
    assert.equal(three.junit, one.junit);
    assert.deepEqual(three.log, one.log);
    assert.deepEqual(three.html, one.html);
    assert.deepEqual(three.manifest, one.manifest);
    assert.equal(three.stderr, one.stderr);
    assert.deepEqual(blocks(three.stdout), blocks(one.stdout));
  } finally {
    await api.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the failing steps kept in full (the run's first 100) are those of one thread", async () => {
  // 100 failing flows, a body over the 2 KiB each keeps once the budget is spent: all in full.
  const big = "x".repeat(4000);
  const api = notingServer(() => Response.json({ big }, { status: 500 }));
  const files: Record<string, string> = {};
  for (let i = 0; i < 100; i++) {
    files[`flows/f${String(i).padStart(3, "0")}.yaml`] =
      `name: f${i}\nsteps:\n  - name: a\n    request: {url: "${api.base}/x?n=${i}"}\n    assert: {status: 200}\n`;
  }
  const dir = await suite(files);
  try {
    const report = async (workers: string) => {
      const run = await runWorkers(dir, workers, "3", [
        "--run-id",
        "same",
        "--report-json",
        `r${workers}.json`,
      ]);
      assert.equal(run.code, 1, run.stderr);
      return stableJson(await Deno.readTextFile(`${dir}/r${workers}.json`));
    };
    const one = await report("1");
    const three = await report("3");
    // One budget for the run: each of the 100 keeps its body (a share per thread kept fewer).
    assert.equal(JSON.stringify(three).split(big).length - 1, 100);
    assert.deepEqual(three, one);
  } finally {
    await api.stop();
    await Deno.remove(dir, { recursive: true });
  }
});
