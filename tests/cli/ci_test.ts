/**
 * Suites at CI scale, end to end through the CLI: sharding and merging,
 * artifacts (--out-dir), secret redaction in every output, interrupts,
 * unwritable paths, --filter/--list and the reproduce command.
 */
import assert from "node:assert/strict";
import { XMLParser } from "fast-xml-parser";
import { startDemoApi } from "../../examples/demo_api.ts";
import { root, runCli } from "../support/cli.ts";
import { ignoreXsd, validateJUnitFile } from "../support/xmllint.ts";
import { RUNNER_PERMISSIONS, RUNNER_V8_FLAGS } from "../../scripts/permissions.ts";
import { sha256Hex } from "../../lib/report/manifest.ts";

const decoder = new TextDecoder();

async function tempDir(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "flowrun-ci-" });
}

async function readArtifacts(dir: string) {
  const text = (name: string) => Deno.readTextFile(`${dir}/${name}`);
  return {
    junit: await text("junit.xml"),
    json: await text("report.json"),
    log: await text("run.log.ndjson"),
    manifest: await text("manifest.json"),
  };
}

/** Writes N small flows against the demo API; every third one fails. */
async function writeSuite(dir: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const sub = i % 2 === 0 ? "a" : "b/deeper";
    await Deno.mkdir(`${dir}/${sub}`, { recursive: true });
    const status = i % 3 === 2 ? 201 : 200;
    await Deno.writeTextFile(
      `${dir}/${sub}/flow_${String(i).padStart(2, "0")}.yaml`,
      `name: flow ${i}
steps:
  - name: health
    request: {url: "\${ENV.BASE_URL}/health"}
    assert: {status: ${status}, json: [{path: $.json.status, equals: ok}]}
  - name: echo
    request: {method: POST, url: "\${ENV.BASE_URL}/echo/${i}", body: {n: ${i}}}
    assert: {json: [{path: $.json.body.n, equals: ${i}}]}
`,
    );
  }
}

/** What must agree between two runs of the same suite: everything but timings and generated values. */
function essence(
  report: { flows: { file: string; name: string; status: string; steps: unknown[] }[] },
) {
  return report.flows.map((f) => ({
    file: f.file,
    name: f.name,
    status: f.status,
    steps: (f.steps as {
      name: string;
      status: string;
      attempts: number;
      assertions: { path: string; passed: boolean }[];
    }[])
      .map((s) => ({
        name: s.name,
        status: s.status,
        attempts: s.attempts,
        checks: s.assertions.map((a) => `${a.path}:${a.passed}`),
      })),
  }));
}

Deno.test("sharded runs cover every flow once and merge into the single run's result", async () => {
  const dir = await tempDir();
  const api = await startDemoApi();
  const env = { BASE_URL: api.url };
  try {
    await writeSuite(`${dir}/flows`, 11);
    const single = await runCli([
      "run",
      `${dir}/flows`,
      "--report-json",
      `${dir}/single.json`,
      "--run-id",
      "R1",
      "--jobs",
      "3",
    ], { env });
    assert.equal(single.code, 1);

    const lists = await Promise.all(
      [1, 2, 3].map((i) => runCli(["run", `${dir}/flows`, "--shard", `${i}/3`, "--list"], { env })),
    );
    const listed = lists.map((l) => l.stdout.trim().split("\n"));
    assert.deepEqual(listed.map((l) => l.length).sort(), [3, 4, 4], "balanced in count");
    assert.equal(new Set(listed.flat()).size, 11, "disjoint and complete");

    const shards = await Promise.all(
      [1, 2, 3].map((i) =>
        runCli([
          "run",
          `${dir}/flows`,
          "--shard",
          `${i}/3`,
          "--report-json",
          `${dir}/shard-${i}.json`,
          "--run-id",
          "R1",
        ], { env })
      ),
    );
    assert.ok(shards.every((s) => s.code === 0 || s.code === 1), "each shard exits 0 or 1");
    assert.ok(shards.some((s) => s.code === 1), "the failing flows land in some shard");
    const merged = await runCli([
      "merge",
      `${dir}/shard-1.json`,
      `${dir}/shard-2.json`,
      `${dir}/shard-3.json`,
      "--report-json",
      `${dir}/merged.json`,
      "--report-junit",
      `${dir}/merged.xml`,
    ]);
    assert.equal(merged.code, 1, "the merged run failed because some flows failed");
    assert.match(merged.stdout, /^merged 3 reports · 11 flows: 8 passed, 3 failed · 22 steps: /);
    const a = JSON.parse(await Deno.readTextFile(`${dir}/single.json`));
    const b = JSON.parse(await Deno.readTextFile(`${dir}/merged.json`));
    assert.deepEqual(essence(b), essence(a));
    assert.deepEqual(b.totals, a.totals);
    assert.equal(b.run_id, "R1");
    if (!ignoreXsd) await validateJUnitFile(`${dir}/merged.xml`);

    // One page for the whole failing, sharded run.
    const page = await runCli([
      "report",
      "html",
      `${dir}/shard-1.json`,
      `${dir}/shard-2.json`,
      `${dir}/shard-3.json`,
      "-o",
      `${dir}/merged.html`,
    ]);
    assert.equal(page.code, 0, page.stderr);
    assert.match(page.stdout, /\(11 flows from 3 reports\)/);
    const html = await Deno.readTextFile(`${dir}/merged.html`);
    for (let i = 0; i < 11; i++) assert.ok(html.includes(`flow ${i}`), `flow ${i} is on the page`);
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--out-dir writes the four artifacts, complete and consistent", async () => {
  const dir = await tempDir();
  const api = await startDemoApi();
  try {
    const run = await runCli(
      [
        "run",
        "tests/cases/ok/polling.yaml",
        "tests/cases/failed/assertions.yaml",
        "--out-dir",
        `${dir}/out`,
        "--run-id",
        "R2",
      ],
      { env: { BASE_URL: api.url } },
    );
    assert.equal(run.code, 1);
    const art = await readArtifacts(`${dir}/out`);
    if (!ignoreXsd) await validateJUnitFile(`${dir}/out/junit.xml`);
    const report = JSON.parse(art.json);
    assert.equal(report.run_id, "R2");
    const events = art.log.trimEnd().split("\n").map((line) => JSON.parse(line));
    assert.equal(events[0].event, "run_start");
    assert.equal(events.at(-1).event, "run_end");
    assert.ok(events.every((e) => e.run_id === "R2" && typeof e.ts === "string"));
    assert.equal(
      events.filter((e) => e.event === "request").length,
      6,
      "5 requests, one step polled 3 times: 2 + 3 + 1",
    );
    const manifest = JSON.parse(art.manifest);
    assert.equal(manifest.run_id, "R2");
    // Flowrun as it was started (here `deno run … cli.ts`, as the reproduce lines say), then its words.
    assert.deepEqual(manifest.command.slice(manifest.command.indexOf("cli.ts") + 1).slice(0, 2), [
      "run",
      "tests/cases/ok/polling.yaml",
    ]);
    assert.equal(manifest.exit_code, 1);
    assert.deepEqual(manifest.flows.map((f: { file: string }) => f.file), [
      "tests/cases/failed/assertions.yaml",
      "tests/cases/ok/polling.yaml",
    ]);
    assert.equal(
      manifest.flows[1].sha256,
      await sha256Hex(await Deno.readFile("tests/cases/ok/polling.yaml")),
    );
    assert.ok(manifest.env_read.includes("BASE_URL"));
    for (const artifact of manifest.artifacts) {
      assert.equal(
        artifact.sha256,
        await sha256Hex(await Deno.readFile(artifact.path)),
        artifact.path,
      );
    }
    assert.deepEqual(manifest.artifacts.map((a: { kind: string }) => a.kind).sort(), [
      "html",
      "json",
      "junit",
      "log",
    ]);
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

const TOKEN = "tok_9f8e7d6c5b4a39281706";
const PASSWORD = 'pa ss/"word"+&=\\u00e9';
const API_KEY = "k3y/with+special=chars&more?yes";
const BASIC = btoa(`svc:${PASSWORD}`);

/** A server that issues a known token, so the test can look for it. */
function secretServer() {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const url = new URL(request.url);
    if (url.pathname === "/login") return Response.json({ token: TOKEN, token_type: "Bearer" });
    if (url.pathname === "/me") {
      return request.headers.get("authorization") === `Bearer ${TOKEN}`
        ? Response.json({ ok: true })
        : new Response(null, { status: 401 });
    }
    return Response.json({
      query: Object.fromEntries(url.searchParams),
      headers: Object.fromEntries(request.headers),
      body: await request.json().catch(() => null),
    });
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

/** Every form in which a secret could leak: raw and the encodings exact-match redaction misses. */
function forms(secret: string): string[] {
  const json = JSON.stringify(secret).slice(1, -1);
  const bytes = new TextEncoder().encode(secret);
  const b64 = btoa(String.fromCharCode(...bytes));
  return [
    ...new Set([
      secret,
      encodeURIComponent(secret),
      encodeURIComponent(secret).replace(/%20/g, "+"),
      json,
      b64,
      b64.replace(/=+$/, ""),
    ]),
  ];
}

Deno.test("no planted secret reaches the console, the log, the reports or the manifest", async () => {
  const dir = await tempDir();
  const api = secretServer();
  try {
    const run = await runCli(
      [
        "run",
        "tests/fixtures/secrets/leaky.yaml",
        "--out-dir",
        `${dir}/out`,
        "--verbose",
        "--var",
        `client_secret=${API_KEY}x`,
      ],
      {
        env: {
          BASE_URL: api.url,
          DEMO_PASSWORD: PASSWORD,
          SERVICE_API_KEY: API_KEY,
          BASIC_CREDENTIALS_B64: BASIC,
        },
      },
    );
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const art = await readArtifacts(`${dir}/out`);
    const outputs: Record<string, string> = { stdout: run.stdout, stderr: run.stderr, ...art };
    for (const [where, text] of Object.entries(outputs)) {
      for (const secret of [TOKEN, PASSWORD, API_KEY, BASIC, `${API_KEY}x`]) {
        for (const form of forms(secret)) {
          assert.ok(
            !text.includes(form),
            `${where} contains ${JSON.stringify(form)} (a form of ${JSON.stringify(secret)})`,
          );
        }
      }
      // Basic credentials decode to no readable password either.
      for (const word of text.match(/[A-Za-z0-9+/]{12,}={0,2}/g) ?? []) {
        let decoded = "";
        try {
          decoded = atob(word.length % 4 === 0 ? word : word + "=".repeat(4 - (word.length % 4)));
        } catch {
          continue;
        }
        assert.ok(!decoded.includes(PASSWORD), `${where}: ${word} decodes to the password`);
      }
    }
    // What is not secret stays readable.
    assert.ok(run.stdout.includes("echo_everything") && run.stdout.includes("127.0.0.1"));
    assert.ok(art.json.includes("visible-note") && art.json.includes(api.url));
    assert.ok(run.stdout.includes("***"), "masked values are visible as masked");
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("SIGINT mid-run stops new requests, writes every artifact and exits 130", async () => {
  const dir = await tempDir();
  let requests = 0;
  let inSlow: () => void = () => {};
  const reachedSlow = new Promise<void>((resolve) => (inSlow = resolve));
  const release = new AbortController();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    requests++;
    if (new URL(request.url).pathname === "/slow") {
      inSlow();
      await new Promise((r) => {
        const timer = setTimeout(r, 10_000);
        release.signal.addEventListener("abort", () => (clearTimeout(timer), r(null)));
      });
    }
    return Response.json({ ok: true });
  });
  const url = `http://127.0.0.1:${server.addr.port}`;
  try {
    for (const [name, path] of [["a_first", "/fast"], ["b_slow", "/slow"], ["c_never", "/fast"]]) {
      await Deno.writeTextFile(
        `${dir}/${name}.yaml`,
        `name: ${name}\nsteps:\n  - name: one\n    request: {url: "${url}/fast"}\n  - name: two\n    request: {url: "${url}${path}?key=\${ENV.PARTNER_API_KEY}"}\n  - name: three\n    request: {url: "${url}/fast"}\n`,
      );
    }
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        ...RUNNER_PERMISSIONS,
        ...RUNNER_V8_FLAGS,
        `${root}cli.ts`,
        "run",
        dir,
        "--jobs",
        "1",
        "--out-dir",
        `${dir}/out`,
        "--run-id",
        "R3",
      ],
      cwd: root,
      env: { NO_COLOR: "1", PARTNER_API_KEY: API_KEY },
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    await reachedSlow;
    child.kill("SIGINT");
    const { code, stdout, stderr } = await child.output();
    release.abort();
    assert.equal(code, 130, decoder.decode(stderr));
    assert.match(decoder.decode(stderr), /SIGINT received/);
    assert.equal(
      requests,
      5,
      "3 from the first flow, 2 from the second; nothing after the interrupt",
    );
    assert.match(
      decoder.decode(stdout),
      /○ .*c_never\.yaml · c_never skipped: the run was interrupted \(SIGINT\)/,
    );
    const art = await readArtifacts(`${dir}/out`);
    if (!ignoreXsd) await validateJUnitFile(`${dir}/out/junit.xml`);
    const report = JSON.parse(art.json);
    assert.equal(report.interrupted, "SIGINT");
    assert.deepEqual(report.flows.map((f: { status: string }) => f.status), [
      "passed",
      "skipped",
      "skipped",
    ]);
    assert.deepEqual(
      report.flows[1].steps.map((s: { status: string; failure_kind?: string }) =>
        `${s.status}/${s.failure_kind}`
      ),
      [
        "passed/undefined",
        "skipped/interrupted",
        "skipped/interrupted",
      ],
    );
    assert.equal(JSON.parse(art.log.trimEnd().split("\n").at(-1)!).event, "run_end");
    assert.equal(JSON.parse(art.manifest).exit_code, 130);
    const xml = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(
      art.junit,
    );
    assert.equal([xml.testsuites.testsuite].flat().length, 3);
    // The interrupted request carried a secret in its URL; no artifact may show it.
    const outputs = { stdout: decoder.decode(stdout), stderr: decoder.decode(stderr), ...art };
    for (const [where, text] of Object.entries(outputs)) {
      for (const form of forms(API_KEY)) {
        assert.ok(!text.includes(form), `${where} contains ${form}`);
      }
    }
    assert.ok(art.log.includes("key=***"), "the URL is still there, masked");
  } finally {
    release.abort();
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an unwritable report path is an exit-2 error before any request", async () => {
  const dir = await tempDir();
  let requests = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    requests++;
    return new Response("ok");
  });
  try {
    await Deno.writeTextFile(
      `${dir}/flow.yaml`,
      `name: f\nsteps:\n  - name: s\n    request: {url: "http://127.0.0.1:${server.addr.port}/"}\n`,
    );
    await Deno.writeTextFile(`${dir}/a-file`, "");
    const run = await runCli([
      "run",
      `${dir}/flow.yaml`,
      "--report-json",
      `${dir}/a-file/report.json`,
    ]);
    assert.equal(run.code, 2);
    assert.match(run.stderr, /^error\[unwritable\]: Cannot write ".*a-file\/report\.json": /);
    assert.equal(requests, 0);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--filter selects by name or path glob, and --list shows the selection", async () => {
  const dir = await tempDir();
  try {
    await writeSuite(dir, 6);
    const byName = await runCli(["run", dir, "--list", "--filter", "flow 3"]);
    assert.deepEqual(byName.stdout.trim().split("\n").map((f) => f.slice(f.lastIndexOf("/") + 1)), [
      "flow_03.yaml",
    ]);
    const byGlob = await runCli(["run", dir, "--list", "--filter", "**/b/**"]);
    assert.equal(byGlob.stdout.trim().split("\n").length, 3);
    assert.equal(byGlob.code, 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a failed flow ends with a command that reproduces it, secrets left as references", async () => {
  const api = await startDemoApi();
  try {
    const run = await runCli(
      [
        "run",
        "tests/cases/failed/type_mismatch.yaml",
        "--run-id",
        "R4",
        "--var",
        "note=two words",
        "--var",
        "api_password=hunter22",
      ],
      { env: { BASE_URL: api.url } },
    );
    assert.equal(run.code, 1);
    const line = run.stdout.split("\n").find((l) => l.includes("reproduce:"))!;
    const command = line.slice(line.indexOf("reproduce:") + "reproduce: ".length);
    assert.equal(
      command,
      `deno run ${RUNNER_V8_FLAGS.join(" ")} ${
        RUNNER_PERMISSIONS.join(" ")
      } cli.ts run tests/cases/failed/type_mismatch.yaml --run-id R4 --var 'note=two words' --var api_password="$API_PASSWORD"`,
    );
    assert.ok(!run.stdout.includes("hunter22"));
    // The command really reproduces the failure.
    const again = await new Deno.Command("sh", {
      args: ["-c", command.replace(/^deno /, `${JSON.stringify(Deno.execPath())} `)],
      cwd: root,
      env: { BASE_URL: api.url, API_PASSWORD: "hunter22", NO_COLOR: "1" },
    }).output();
    assert.equal(again.code, 1);
    assert.match(
      decoder.decode(again.stdout),
      /run R4 · 1 flow[^]*\$\.status: expected string "200", got number 200/,
    );
  } finally {
    await api.close();
  }
});

Deno.test("--report-html writes a self-contained page with secrets masked; report html renders merged shards", async () => {
  const dir = await tempDir();
  const api = secretServer();
  try {
    const env = {
      BASE_URL: api.url,
      DEMO_PASSWORD: PASSWORD,
      SERVICE_API_KEY: API_KEY,
      BASIC_CREDENTIALS_B64: BASIC,
    };
    const run = await runCli(
      [
        "run",
        "tests/fixtures/secrets/leaky.yaml",
        "--report-html",
        `${dir}/run.html`,
        "--report-json",
        `${dir}/run.json`,
      ],
      { env },
    );
    assert.equal(run.code, 1);
    const page = await Deno.readTextFile(`${dir}/run.html`);
    assert.match(page, /^<!doctype html>/i);
    assert.doesNotMatch(page, /<script[^>]*\ssrc=|<link\b/i, "no external scripts or styles");
    assert.ok(page.includes("echo_everything") && page.includes("Secrets everywhere"));
    for (const secret of [TOKEN, PASSWORD, API_KEY, BASIC]) {
      for (const form of forms(secret)) {
        assert.ok(!page.includes(form), `the page contains ${JSON.stringify(form)}`);
      }
    }

    const rendered = await runCli([
      "report",
      "html",
      `${dir}/run.json`,
      `${dir}/run.json`,
      "-o",
      `${dir}/merged.html`,
    ]);
    assert.equal(rendered.code, 2, "the same report twice is not a set of disjoint shards");
    assert.match(rendered.stderr, /error\[duplicate-flow\]/);
    const single = await runCli(["report", "html", `${dir}/run.json`, "-o", `${dir}/again.html`]);
    assert.equal(single.code, 0, single.stderr);
    assert.match(single.stdout, /^wrote .*again\.html \(1 flow from 1 report\)\n$/);
    assert.ok((await Deno.readTextFile(`${dir}/again.html`)).includes("echo_everything"));
  } finally {
    await api.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("each flow file is quoted until its last flow is reported and hashed in the manifest", async () => {
  const dir = await tempDir();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => Response.json({ n: 1 }),
  );
  const base = `http://127.0.0.1:${server.addr.port}`;
  const files: Record<string, string> = {
    // Every row fails at the same line: each row's failure must quote it.
    "flows/a_rows.yaml":
      `name: rows\nvars: {id: "0"}\ndata: [{id: "1"}, {id: "2"}, {id: "3"}]\nsteps:\n  - name: get\n    request: {url: "${base}/\${id}"}\n    assert: {json: [{path: $.json.n, equals: 2}]}\n`,
    "flows/b_main.yaml":
      `name: main\nsteps:\n  - name: login\n    include: ../common/login.yaml\n  - name: get\n    request: {url: "${base}/main"}\n    assert: {status: 500}\n`,
    "flows/c_again.yaml": `name: again\nsteps:\n  - name: check\n    include: a_check.yaml\n`,
    // Run on its own first (and failing), then included by c_again: quoted both times.
    "flows/a_check.yaml":
      `name: check\nsteps:\n  - name: get\n    request: {url: "${base}/check"}\n    assert: {json: [{path: $.json.n, equals: 4}]}\n`,
    "common/login.yaml":
      `name: login\nsteps:\n  - name: post\n    request: {url: "${base}/login"}\n    assert: {json: [{path: $.json.n, equals: 3}]}\n`,
    "setup.yaml": `name: setup\nsteps:\n  - name: ping\n    request: {url: "${base}/ping"}\n`,
  };
  try {
    for (const [name, text] of Object.entries(files)) {
      await Deno.mkdir(`${dir}/${name}`.replace(/\/[^/]*$/, ""), { recursive: true });
      await Deno.writeTextFile(`${dir}/${name}`, text);
    }
    const run = await runCli([
      "run",
      `${dir}/flows`,
      "--setup",
      `${dir}/setup.yaml`,
      "--out-dir",
      `${dir}/out`,
      "--console",
      "failures",
    ]);
    assert.equal(run.code, 1, run.stderr);
    const quoted = run.stdout.match(
      / 7 \| {5}assert: \{json: \[\{path: \$\.json\.n, equals: 2\}\]\}\n/g,
    );
    assert.equal(quoted?.length, 3, run.stdout);
    assert.match(run.stdout, / 5 \| {5}assert: \{json: \[\{path: \$\.json\.n, equals: 3\}\]\}\n/);
    const check = run.stdout.match(
      / 5 \| {5}assert: \{json: \[\{path: \$\.json\.n, equals: 4\}\]\}\n/g,
    );
    assert.equal(check?.length, 2, run.stdout);
    const manifest = JSON.parse(await Deno.readTextFile(`${dir}/out/manifest.json`));
    const hashes = Object.fromEntries(
      manifest.flows.map((f: { file: string; sha256: string }) => [f.file, f.sha256]),
    );
    assert.equal(Object.keys(hashes).length, 6);
    for (const name of Object.keys(files)) {
      assert.equal(
        hashes[`${dir}/${name}`],
        await sha256Hex(await Deno.readFile(`${dir}/${name}`)),
        name,
      );
    }
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
