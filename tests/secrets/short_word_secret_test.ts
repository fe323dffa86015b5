/**
 * A short secret that is a common word (a password `pass`, `test`, `admin`, `step`, `flow`,
 * `1234`) is masked where it is a value, never in flowrun's own words: a run whose passwords are
 * those words, each sent in a body, a query and a header and echoed by the server in every
 * shape, writes every artifact (console, JSON, JUnit, HTML, run log, manifest, code quality
 * report, HAR, GitHub annotations and job summary) valid, reading `passed` where steps passed,
 * every flow and step name as written, and no place a server or the flow put the word in clear.
 * A secret shorter than four characters (`ok`, `run`) cannot be told from flowrun's words: the
 * run says so by the variable's name, never its value.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { leaves, unescapeXml } from "./short_secret_artifacts.ts";

const WORDS = ["pass", "test", "admin", "step", "flow", "1234"];

/** Echoes a password in every shape a server does: alone, in a sentence, quoted, as a number. */
function startEchoing() {
  const srv = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/login") {
      const { password } = await req.json();
      return Response.json({ echo: password, status: "passed", token: crypto.randomUUID() });
    }
    const q = url.searchParams.get("q") ?? "";
    const body = { status: "passed", got: q, note: `<<${q}>>`, said: `the server says ${q} here` };
    return Response.json(/^\d+$/.test(q) ? { ...body, n: Number(q) } : body, {
      headers: { "x-echo": q },
    });
  });
  return { base: `http://127.0.0.1:${srv.addr.port}`, close: () => srv.shutdown() };
}

/** The flow whose password is `PASSWORD_<i>`: two steps pass, the third fails quoting it. */
function flowOf(i: number): string {
  const env = `\${ENV.PASSWORD_${i}}`;
  return `name: "as admin, pass the step test of flow 1234 (${i})"
steps:
  - name: login step
    request:
      method: POST
      url: \${BASE_URL}/login
      body: {user: admin, password: "${env}"}
    capture: {echoed: $.json.echo}
    assert: {status: 200}
  - name: passed step
    request:
      url: "\${BASE_URL}/items?q=${env}"
      headers: {x-note: "${env}"}
    assert:
      status: 200
      json: [{path: $.json.status, equals: passed}]
  - name: test flow step
    request:
      url: "\${BASE_URL}/items?q=${env}"
    assert:
      json: [{path: $.json.got, equals: nope}]
`;
}

const FLOW_NAMES = WORDS.map((_, i) => `as admin, pass the step test of flow 1234 (${i})`);
const STEP_NAMES = ["login step", "passed step", "test flow step"];

/** The attribute values and texts of an XML document, unescaped; a `classname` is the file's path. */
function xmlLeaves(xml: string): string[] {
  const out: string[] = [];
  for (const m of xml.matchAll(/\s([\w:-]+)="([^"]*)"/g)) {
    if (m[1] !== "classname") out.push(unescapeXml(m[2]));
  }
  for (const m of xml.matchAll(/>([^<]+)</g)) out.push(unescapeXml(m[1]));
  return out;
}

/** Where a server or the flow put `word`: none of these may stand in any output. */
function placesOf(word: string): string[] {
  return [
    `<<${word}>>`,
    `says ${word} here`,
    `q=${word}`,
    `"password":"${word}"`,
    `"echo":"${word}"`,
    `"got":"${word}"`,
    `x-note: ${word}`,
    `x-echo: ${word}`,
    `"n":${word}`,
  ];
}

Deno.test("short common words as passwords: masked where they are values, flowrun's words intact", async () => {
  const srv = startEchoing();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-short-word-" });
  try {
    // Each flow's file is named after its password: the user's own path, never rewritten.
    const files = WORDS.map((word) => `${dir}/${word}.yaml`);
    for (const [i, file] of files.entries()) await Deno.writeTextFile(file, flowOf(i));
    const out = `${dir}/out`;
    const cli = await runCli([
      "run",
      ...files,
      "-v",
      "--jobs",
      "1",
      ...["--out-dir", out, "--report-har", `${out}/run.har`],
      ...["--report-codequality", `${out}/cq.json`],
    ], {
      env: {
        BASE_URL: srv.base,
        GITHUB_ACTIONS: "true",
        GITHUB_STEP_SUMMARY: `${dir}/summary.md`,
        ...Object.fromEntries(WORDS.map((w, i) => [`PASSWORD_${i}`, w])),
      },
    });
    assert.equal(cli.code, 1, cli.stdout + cli.stderr);
    const read = (name: string) => Deno.readTextFile(`${out}/${name}`);
    // Every artifact is still valid: parsed back whole.
    const report = JSON.parse(await read("report.json"));
    const manifest = JSON.parse(await read("manifest.json"));
    const quality = JSON.parse(await read("cq.json"));
    const har = JSON.parse(await read("run.har"));
    const log = (await read("run.log.ndjson")).trim().split("\n").map((l) => JSON.parse(l));
    const junit = await read("junit.xml");
    const html = await read("report.html");
    const summary = await Deno.readTextFile(`${dir}/summary.md`);
    assert.match(junit, /^<\?xml[^>]*\?>\s*<testsuites[\s>]/);
    assert.equal(junit.match(/<testcase\b/g)?.length, WORDS.length * 3, junit);
    assert.equal(junit.match(/<failure\b/g)?.length, WORDS.length, junit);

    // `passed` reads `passed`, and every name reads as written.
    assert.equal(report.totals.steps.passed, WORDS.length * 2, JSON.stringify(report.totals));
    assert.equal(report.totals.steps.failed, WORDS.length);
    assert.deepEqual(report.flows.map((f: { name: string }) => f.name).sort(), FLOW_NAMES.sort());
    for (const flow of report.flows) {
      assert.deepEqual(flow.steps.map((s: { name: string }) => s.name), STEP_NAMES);
      assert.deepEqual(flow.steps.map((s: { status: string }) => s.status), [
        "passed",
        "passed",
        "failed",
      ]);
      for (const step of flow.steps) assert.equal(typeof step.duration_ms, "number");
      assert.deepEqual(flow.steps[0].captures, ["echoed"]);
    }
    assert.deepEqual(report.flows.map((f: { file: string }) => f.file).sort(), [...files].sort());
    assert.deepEqual(manifest.command.filter((w: string) => w.endsWith(".yaml")), files);
    assert.deepEqual(manifest.flows.map((f: { file: string }) => f.file).sort(), [...files].sort());
    for (const file of files) {
      assert.ok(cli.stdout.includes(`✘ ${file} · `), `console: ${file}`);
      assert.ok(har.log.pages.some((p: { _file: string }) => p._file === file), `HAR: ${file}`);
    }
    for (const name of [...FLOW_NAMES, ...STEP_NAMES]) {
      assert.ok(cli.stdout.includes(name), `console: ${name}\n${cli.stdout}`);
      assert.ok(junit.includes(`name="${name}"`), `junit: ${name}`);
      assert.ok(summary.includes(name) || STEP_NAMES.includes(name), `summary: ${name}`);
    }
    assert.ok(cli.stdout.includes("6 flows: 0 passed, 6 failed"), cli.stdout);
    assert.ok(cli.stdout.includes("18 steps: 12 passed, 6 failed"), cli.stdout);
    assert.ok(!/\*\*\*(?:ed|word|s)\b/.test(cli.stdout + junit + html), cli.stdout);
    const stepEnds = log.filter((l) => l.event === "step_end" || l.status !== undefined);
    assert.ok(stepEnds.some((l) => l.status === "passed"), JSON.stringify(log.slice(0, 5)));
    assert.ok(log.every((l) => !Object.keys(l).some((k) => k.includes("***"))));
    assert.ok(
      har.log.entries.some((e: { _step?: string }) => e._step === "passed step"),
      "the HAR names its steps as written",
    );
    assert.deepEqual(
      har.log.pages.map((p: { title: string }) => p.title).sort(),
      FLOW_NAMES.sort(),
    );
    // At -v the console shows the headers the flow wrote and the server sent, by name.
    assert.match(cli.stdout, /> x-note: \*\*\*\n/);
    assert.match(cli.stdout, /< x-echo: \*\*\*\n/);
    assert.match(cli.stdout, /✔ login step/);
    assert.match(cli.stdout, /✔ \$\.json\.status: equals "passed" holds/);

    // No place a server or the flow put a password shows it, in any artifact, field by field.
    const texts = [
      cli.stdout,
      cli.stderr,
      summary,
      ...leaves(report),
      ...leaves(manifest),
      ...leaves(quality),
      ...leaves(har),
      ...log.flatMap((l) => leaves(l)),
      ...xmlLeaves(junit),
      html,
    ];
    for (const word of WORDS) {
      for (const text of texts) {
        for (const place of placesOf(word)) {
          assert.ok(!text.includes(place), `${place} in ${text.slice(0, 400)}`);
        }
        // A field that is the word alone is a value a server or the flow sent.
        assert.notEqual(text.trim(), word, `a field reads ${word}`);
      }
    }
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a password shorter than four characters is named in a warning, never shown", async () => {
  const srv = startEchoing();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-short-word-" });
  try {
    await Deno.writeTextFile(`${dir}/f0.yaml`, flowOf(0));
    await Deno.writeTextFile(`${dir}/f1.yaml`, flowOf(1));
    const cli = await runCli(["run", `${dir}/f0.yaml`, `${dir}/f1.yaml`], {
      env: { BASE_URL: srv.base, PASSWORD_0: "ok", PASSWORD_1: "run" },
    });
    assert.equal(cli.code, 1, cli.stdout + cli.stderr);
    for (const name of ["PASSWORD_0", "PASSWORD_1"]) {
      const warning = `warning[short-secret]: ${name} is shorter than 4 characters`;
      assert.equal(cli.stderr.split(warning).length, 2, cli.stderr);
    }
    // Named, never quoted.
    assert.ok(!/["'=:] ?(ok|run)\b/.test(cli.stderr), cli.stderr);
    assert.ok(cli.stdout.includes("6 steps: 4 passed, 2 failed"), cli.stdout);
    assert.ok(cli.stdout.includes(" run "), "flowrun's own words: 'flowrun 0.1.0 · run <id>'");
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("flowrun's own hints keep a short password's word: 'pass --var'", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-short-word-" });
  try {
    const flow = "name: hint\nsteps:\n  - name: s\n    request:\n" +
      "      url: 'http://127.0.0.1:9/${nope}'\n      headers: {x-pw: '${ENV.PASSWORD}'}\n";
    await Deno.writeTextFile(`${dir}/f.yaml`, flow);
    const cli = await runCli(["run", `${dir}/f.yaml`], { env: { PASSWORD: "pass" } });
    assert.equal(cli.code, 2, cli.stdout + cli.stderr);
    assert.match(cli.stderr, /under vars, pass --var nope=/, cli.stderr);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
