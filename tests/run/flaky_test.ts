/**
 * Flaky flows (issue 42, item 2): `--retries N` re-runs a flow that did not
 * pass, from its first step, after its cleanup steps; one that passes on a
 * re-run is flaky, named in every report and in `merge`, and fails the run
 * only with `--fail-on-flaky`. The CLI runs as a subprocess against a server
 * the test starts, which fails a key's first requests by count.
 */
import assert from "node:assert/strict";
import { XMLParser } from "fast-xml-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import { runCli, spawnCli } from "../support/cli.ts";
import { ignoreXsd, validateJUnitFile } from "../support/xmllint.ts";

/**
 * `/flaky?key=K&fail=N` answers 503 to its first N requests for K, then 200;
 * `/cleanup?key=K` answers 204. Every request is logged, in order.
 */
function flakyServer() {
  const seen = new Map<string, number>();
  const log: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    const key = url.searchParams.get("key") ?? "";
    const n = (seen.get(`${url.pathname}:${key}`) ?? 0) + 1;
    seen.set(`${url.pathname}:${key}`, n);
    log.push(`${url.pathname.slice(1)} ${key}`);
    if (url.pathname === "/cleanup") return new Response(null, { status: 204 });
    const fail = Number(url.searchParams.get("fail") ?? "0");
    return n <= fail
      ? Response.json({ error: "busy" }, { status: 503 })
      : Response.json({ id: url.searchParams.get("id") });
  });
  return { server, base: `http://127.0.0.1:${server.addr.port}`, log };
}

/** A flow whose `get` fails `fail` times for `key`, then a cleanup step. */
function flow(name: string, base: string, key: string, fail: number, extra = ""): string {
  return [
    `name: ${name}`,
    extra,
    "steps:",
    "  - name: get",
    `    request: {url: "${base}/flaky?key=${key}&fail=${fail}&id=\${RANDOM.UUID}"}`,
    "    assert: {status: 200}",
    "  - name: cleanup",
    "    always: true",
    `    request: {url: "${base}/cleanup?key=${key}"}`,
    "",
  ].filter((line) => line !== "").join("\n");
}

async function tree(files: Record<string, string>): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-flaky-" });
  for (const [path, text] of Object.entries(files)) {
    await Deno.mkdir(`${dir}/${path}`.replace(/\/[^/]*$/, ""), { recursive: true });
    await Deno.writeTextFile(`${dir}/${path}`, text);
  }
  return dir;
}

const reportSchema = JSON.parse(
  Deno.readTextFileSync(new URL("../../schema/report.schema.json", import.meta.url)),
);
const reportCheck = new Ajv2020({ allErrors: true, strict: false }).compile(reportSchema);
const validReport = (data: unknown): boolean => reportCheck(data);
const xml = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "",
  isArray: (name) => ["testsuite", "testcase", "flakyFailure", "rerunFailure"].includes(name),
});

// deno-lint-ignore no-explicit-any
type Json = any;

async function reports(dir: string) {
  const report: Json = JSON.parse(await Deno.readTextFile(`${dir}/out/report.json`));
  assert.ok(validReport(report), JSON.stringify(reportCheck.errors));
  const junitText = await Deno.readTextFile(`${dir}/out/junit.xml`);
  const html = await Deno.readTextFile(`${dir}/out/report.html`);
  const log = (await Deno.readTextFile(`${dir}/out/run.ndjson`)).trim().split("\n").map((l) =>
    JSON.parse(l)
  );
  return { report, junitText, junit: xml.parse(junitText), html, log };
}

function suite(junit: Json, name: string): Json {
  return junit.testsuites.testsuite.find((s: Json) => s.name === name);
}

Deno.test("--retries re-runs a failing flow after its cleanup: flaky, exit 0, in every report", async () => {
  const api = flakyServer();
  const dir = await tree({
    "flows/a_flaky.yaml": flow("flaky", api.base, "a", 1),
    "flows/b_broken.yaml": flow("broken", api.base, "b", 99),
    "flows/c_steady.yaml": flow("steady", api.base, "c", 0),
  });
  try {
    const cli = await runCli([
      "run",
      `${dir}/flows/a_flaky.yaml`,
      `${dir}/flows/c_steady.yaml`,
      "--retries",
      "2",
      "--jobs",
      "1",
      "--out-dir",
      `${dir}/out`,
      "--log-file",
      `${dir}/out/run.ndjson`,
      "--console",
      "compact",
    ]);
    assert.equal(cli.code, 0, cli.stdout + cli.stderr);
    assert.match(cli.stdout, /⚠ .*a_flaky\.yaml · flaky flaky \(passed on attempt 2 of 3\)/);
    assert.match(cli.stdout, /2 flows: 1 passed, 1 flaky/);
    // The cleanup of the failed attempt ran before the re-run.
    assert.deepEqual(api.log.filter((l) => l.endsWith(" a")), [
      "flaky a",
      "cleanup a",
      "flaky a",
      "cleanup a",
    ]);
    const { report, junit, junitText, html, log } = await reports(dir);
    assert.equal(report.status, "passed");
    assert.equal(report.totals.flows.passed, 2);
    assert.equal(report.totals.flows.flaky, 1);
    const flaky = report.flows.find((f: Json) => f.name === "flaky");
    assert.equal(flaky.status, "passed");
    assert.equal(flaky.flaky, true);
    assert.equal(flaky.retries, 2);
    assert.equal(flaky.attempts.length, 1);
    const [first] = flaky.attempts;
    assert.equal(first.attempt, 1);
    assert.equal(first.status, "failed");
    assert.equal(first.steps[0].status, "failed");
    assert.equal(first.steps[0].response.status, 503);
    assert.match(first.steps[0].assertions[0].message, /503/);
    // The cleanup step of the failed attempt ran and is kept.
    assert.equal(first.steps[1].status, "passed");
    // Each attempt is a fresh run: ${RANDOM.UUID} is drawn again.
    assert.notEqual(first.steps[0].request.url, flaky.steps[0].request?.url ?? "");
    const steady = report.flows.find((f: Json) => f.name === "steady");
    assert.equal(steady.flaky, undefined);
    assert.equal(steady.attempts, undefined);
    // JUnit: the step passes, with Surefire's flakyFailure for the failed attempt.
    const cases = suite(junit, "flaky").testcase;
    const get = cases.find((c: Json) => c.name === "get");
    assert.equal(get.failure, undefined);
    assert.equal(get.flakyFailure.length, 1);
    assert.match(get.flakyFailure[0].message, /503/);
    assert.equal(get.flakyFailure[0].type, "assertion");
    assert.match(get.flakyFailure[0].stackTrace, /attempt 1 of 3/);
    assert.ok(!junitText.includes("<failure"), junitText);
    if (!ignoreXsd) await validateJUnitFile(`${dir}/out/junit.xml`, "surefire");
    // HTML: the flaky flow and its failed attempt are in the page's data.
    assert.match(html, /"flaky":true,"retries":2,"attempts":\[\{"n":1,"s":"failed"/);
    assert.match(html, /Flaky \(1\)/);
    // Log: each attempt's events carry its number.
    const starts = log.filter((e: Json) =>
      e.event === "flow_start" && e.file.endsWith("a_flaky.yaml")
    );
    assert.deepEqual(starts.map((e: Json) => e.flow_attempt ?? 1), [1, 2]);
    const ends = log.filter((e: Json) =>
      e.event === "step_end" && e.step === "get" && e.file.endsWith("a_flaky.yaml")
    );
    assert.deepEqual(ends.map((e: Json) => [e.flow_attempt ?? 1, e.status]), [[1, "failed"], [
      2,
      "passed",
    ]]);

    // On GitHub Actions the flaky flow is a warning at where its first run broke, not an error.
    await Deno.writeTextFile(`${dir}/flows/a_flaky.yaml`, flow("flaky", api.base, "a1", 1));
    const gh = await runCli(["run", `${dir}/flows/a_flaky.yaml`, "--retries", "2"], {
      env: { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: `${dir}/summary.md` },
    });
    assert.equal(gh.code, 0, gh.stdout + gh.stderr);
    assert.match(
      gh.stdout + gh.stderr,
      /::warning file=[^,]*a_flaky\.yaml,line=5,col=14,title=flaky%3A flaky::passed on attempt 2 of 3; attempt 1: get: status: expected 200, got 503/,
    );
    assert.ok(!(gh.stdout + gh.stderr).includes("::error"), gh.stdout);
    // The job summary passes, counts the flaky flow and lists it with where its first run broke.
    const summary = await Deno.readTextFile(`${dir}/summary.md`);
    assert.match(summary, /^### ✅ flowrun: 1 of 1 flow passed\n/);
    assert.match(summary, / 0 skipped, 1 flaky · steps: /);
    assert.match(
      summary,
      /\| `[^`]*a_flaky\.yaml:5:14` \| flaky \| passed on attempt 2 of 3 \| get: status: expected 200, got 503 \|/,
    );

    // --fail-on-flaky: the same flaky flow fails the build.
    const strict = await runCli([
      "run",
      `${dir}/flows/a_flaky.yaml`,
      "--retries",
      "1",
      "--fail-on-flaky",
      "--report-json",
      `${dir}/strict.json`,
    ]);
    // Key "a" now passes at once (its failure is spent): a fresh key is needed to be flaky again.
    assert.equal(strict.code, 0, strict.stdout + strict.stderr);
    await Deno.writeTextFile(`${dir}/flows/a_flaky.yaml`, flow("flaky", api.base, "a2", 1));
    const strict2 = await runCli([
      "run",
      `${dir}/flows/a_flaky.yaml`,
      "--retries",
      "1",
      "--fail-on-flaky",
    ]);
    assert.equal(strict2.code, 1, strict2.stdout + strict2.stderr);
    assert.match(strict2.stdout, /--fail-on-flaky/);
  } finally {
    await api.server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a flow that fails every attempt is failed, with each attempt kept and rerunFailure in JUnit", async () => {
  const api = flakyServer();
  const dir = await tree({ "flows/broken.yaml": flow("broken", api.base, "b", 99) });
  try {
    const cli = await runCli([
      "run",
      `${dir}/flows/broken.yaml`,
      "--retries",
      "2",
      "--out-dir",
      `${dir}/out`,
      "--log-file",
      `${dir}/out/run.ndjson`,
    ]);
    assert.equal(cli.code, 1, cli.stdout + cli.stderr);
    assert.match(cli.stdout, /failed on all 3 attempts/);
    assert.equal(api.log.filter((l) => l === "flaky b").length, 3);
    const { report, junit } = await reports(dir);
    const broken = report.flows[0];
    assert.equal(broken.status, "failed");
    assert.equal(broken.flaky, undefined);
    assert.deepEqual(broken.attempts.map((a: Json) => [a.attempt, a.status]), [
      [1, "failed"],
      [2, "failed"],
    ]);
    assert.equal(report.totals.flows.failed, 1);
    assert.equal(report.totals.flows.flaky, undefined);
    const get = suite(junit, "broken").testcase.find((c: Json) => c.name === "get");
    assert.ok(get.failure, JSON.stringify(get));
    assert.equal(get.rerunFailure.length, 2);
    assert.match(get.rerunFailure[0].message, /503/);
    if (!ignoreXsd) await validateJUnitFile(`${dir}/out/junit.xml`, "surefire");
  } finally {
    await api.server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a flow's own retries: key overrides the run's, and a bad one is a positioned problem", async () => {
  const api = flakyServer();
  const dir = await tree({
    "flows/none.yaml": flow("none", api.base, "n", 1, "retries: 0"),
    "flows/own.yaml": flow("own", api.base, "o", 1, "retries: 1"),
    "bad/bad.yaml": flow("bad", api.base, "x", 0, "retries: eleven"),
    "bad/big.yaml": flow("big", api.base, "y", 0, "retries: 11"),
  });
  try {
    const cli = await runCli([
      "run",
      `${dir}/flows`,
      "--retries",
      "3",
      "--report-json",
      `${dir}/r.json`,
    ]);
    assert.equal(cli.code, 1, cli.stdout + cli.stderr);
    const report: Json = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const byName = (n: string) => report.flows.find((f: Json) => f.name === n);
    assert.equal(byName("none").status, "failed");
    assert.equal(byName("none").attempts, undefined);
    assert.equal(byName("own").flaky, true);
    assert.equal(byName("own").retries, 1);
    // Without --retries, the flow's own key still re-runs it.
    const alone = await runCli(["run", `${dir}/flows/own.yaml`]);
    assert.equal(alone.code, 0, alone.stdout);
    const bad = await runCli(["validate", `${dir}/bad`]);
    assert.equal(bad.code, 2, bad.stdout + bad.stderr);
    assert.match(bad.stdout + bad.stderr, /bad\.yaml:2:10.*retries/s);
    assert.match(bad.stdout + bad.stderr, /big\.yaml:2:10.*at most 10/s);
    const tooMany = await runCli(["run", `${dir}/flows`, "--retries", "11"]);
    assert.equal(tooMany.code, 2);
    assert.match(tooMany.stderr, /--retries/);
  } finally {
    await api.server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("merge sums the flaky flows of two shards", async () => {
  const api = flakyServer();
  const dir = await tree({
    "flows/a.yaml": flow("a", api.base, "ma", 1),
    "flows/b.yaml": flow("b", api.base, "mb", 1),
  });
  try {
    for (const [i, f] of ["a", "b"].entries()) {
      const cli = await runCli([
        "run",
        `${dir}/flows/${f}.yaml`,
        "--retries",
        "1",
        "--report-json",
        `${dir}/s${i}.json`,
      ]);
      assert.equal(cli.code, 0, cli.stdout + cli.stderr);
    }
    const merged = await runCli([
      "merge",
      `${dir}/s0.json`,
      `${dir}/s1.json`,
      "--report-json",
      `${dir}/all.json`,
      "--report-junit",
      `${dir}/all.xml`,
    ]);
    assert.equal(merged.code, 0, merged.stdout + merged.stderr);
    const all: Json = JSON.parse(await Deno.readTextFile(`${dir}/all.json`));
    assert.ok(validReport(all), JSON.stringify(reportCheck.errors));
    assert.equal(all.totals.flows.flaky, 2);
    assert.equal(all.flows.filter((f: Json) => f.flaky).length, 2);
    assert.match(merged.stdout, /2 flaky/);
    const junitText = await Deno.readTextFile(`${dir}/all.xml`);
    assert.equal(junitText.match(/<flakyFailure /g)?.length, 2);
  } finally {
    await api.server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a setup flow is re-run only by its own retries:, not by --retries", async () => {
  const api = flakyServer();
  const dir = await tree({
    "setup_own.yaml": flow("setup own", api.base, "s1", 1, "retries: 1"),
    "setup_run.yaml": flow("setup run", api.base, "s2", 1),
    "flows/a.yaml": flow("a", api.base, "fa", 0),
  });
  try {
    const own = await runCli([
      "run",
      `${dir}/flows`,
      "--setup",
      `${dir}/setup_own.yaml`,
      "--report-json",
      `${dir}/own.json`,
    ]);
    assert.equal(own.code, 0, own.stdout + own.stderr);
    const report: Json = JSON.parse(await Deno.readTextFile(`${dir}/own.json`));
    assert.equal(report.flows[0].name, "setup own");
    assert.equal(report.flows[0].flaky, true);
    assert.equal(report.flows[1].status, "passed");
    const run = await runCli([
      "run",
      `${dir}/flows`,
      "--setup",
      `${dir}/setup_run.yaml`,
      "--retries",
      "2",
    ]);
    // The setup failed once and was not re-run: the flows were not run.
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.equal(api.log.filter((l) => l === "flaky s2").length, 1);
    assert.match(run.stdout, /setup flow "setup run" did not pass/);
  } finally {
    await api.server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an interrupt stops the re-runs: the run ends with the runs so far", async () => {
  let requests = 0;
  let reached!: () => void;
  const reachedCleanup = new Promise<void>((resolve) => (reached = resolve));
  const release = new AbortController();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    if (new URL(req.url).pathname !== "/cleanup") {
      requests++;
      return new Response(null, { status: 503 });
    }
    // The failed run's cleanup hangs until the test lets go: the interrupt comes then.
    reached();
    await new Promise((resolve) => release.signal.addEventListener("abort", resolve));
    return new Response(null, { status: 204 });
  });
  const dir = await tree({
    "f.yaml": flow("f", `http://127.0.0.1:${server.addr.port}`, "i", 0),
  });
  try {
    const child = spawnCli([
      "run",
      `${dir}/f.yaml`,
      "--retries",
      "5",
      "--report-json",
      `${dir}/r.json`,
    ], { stdout: "piped", stderr: "piped" });
    await reachedCleanup;
    child.kill("SIGINT");
    const { code, stderr } = await child.output();
    release.abort();
    assert.equal(code, 130, new TextDecoder().decode(stderr));
    // The first run failed; after the interrupt no second run was started.
    assert.equal(requests, 1);
    const report: Json = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    const f = report.flows[0];
    assert.equal(f.status, "failed");
    assert.equal(f.attempts, undefined);
    assert.equal(f.flaky, undefined);
  } finally {
    release.abort();
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--fail-fast: a flaky flow passed, so the run goes on; a flow failed on every run stops it", async () => {
  const api = flakyServer();
  const dir = await tree({
    "flows/a.yaml": flow("a", api.base, "ffa", 1),
    "flows/b.yaml": flow("b", api.base, "ffb", 99),
    "flows/c.yaml": flow("c", api.base, "ffc", 0),
  });
  try {
    const cli = await runCli([
      "run",
      `${dir}/flows`,
      "--jobs",
      "1",
      "--fail-fast",
      "--retries",
      "1",
      "--report-json",
      `${dir}/r.json`,
    ]);
    assert.equal(cli.code, 1, cli.stdout + cli.stderr);
    const report: Json = JSON.parse(await Deno.readTextFile(`${dir}/r.json`));
    assert.deepEqual(
      report.flows.map((f: Json) => [f.name, f.status, f.flaky ?? false, f.attempts?.length ?? 0]),
      [["a", "passed", true, 1], ["b", "failed", false, 1], ["c", "skipped", false, 0]],
    );
  } finally {
    await api.server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
