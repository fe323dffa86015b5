/**
 * `deno task test` (scripts/test.ts) names test files by path: a renamed or deleted one would make
 * the parallel part stop before its first test, so every name is held to a test file here.
 */
import assert from "node:assert/strict";
import {
  ALONE,
  failureReport,
  OWN_PROCESS,
  SLOW,
  summaryLine,
  tally,
  timingReport,
  WAITING_FIRST,
} from "../scripts/test.ts";
import { batches, testFiles } from "../scripts/test_files.ts";
import { TIMING } from "./support/timing.ts";

const ROOT = new URL("../", import.meta.url);

Deno.test("the files scripts/test.ts puts in the slow part, starts first or runs alone are test files, each named once", async () => {
  const names = [...SLOW, ...WAITING_FIRST, ...ALONE, ...OWN_PROCESS];
  assert.equal(new Set(names).size, names.length, "a file is named twice");
  for (const name of names) {
    assert.match(name, /^tests\/.*_test\.ts$/, name);
    const stat = await Deno.stat(new URL(name, ROOT));
    assert.ok(stat.isFile, name);
  }
});

Deno.test("deno task test is scripts/test.ts, and .ci/run reads the line it ends with", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
  assert.equal(config.tasks.test, "deno run --allow-all scripts/test.ts");
  const line = summaryLine([{ passed: 1200, failed: 2, ignored: 0 }, undefined], 125_000);
  // The pattern and the two substitutions .ci/run applies to the log.
  const ci = await Deno.readTextFile(new URL(".ci/run", ROOT));
  assert.match(ci, /grep -E '\^\(ok\|FAILED\) \\\| \[0-9\]\+ passed'/);
  assert.match(line, /^(ok|FAILED) \| [0-9]+ passed/);
  assert.equal(line.replace(/.*\| ([0-9]+) passed.*/, "$1"), "1200");
  assert.equal(line.replace(/.*\| ([0-9]+) failed.*/, "$1"), "3");
  assert.deepEqual(tally(`...\n${line}\n`), { passed: 1200, failed: 3, ignored: 0 });
});

Deno.test("the end of the test command's output names each failed test and the first lines of its error", async () => {
  // A real `deno test` run of a file with a failing test, a failing step and a passing test: the
  // form failureReport reads is deno's, not ours, and a new Deno could change it.
  const dir = await Deno.makeTempDir({ prefix: "flowrun-failure-report-" });
  try {
    await Deno.writeTextFile(
      `${dir}/a_test.ts`,
      [
        'Deno.test("fails", () => { throw new Error("first line\\nsecond line"); });',
        'Deno.test("passes", () => {});',
        'Deno.test("outer", async (t) => { await t.step("inner", () => { throw new Error("in a step"); }); });',
        // A stack of 40 frames: longer than the lines kept of an error.
        ...Array.from(
          { length: 40 },
          (_, i) => `function f${i}() { ${i < 39 ? `f${i + 1}()` : 'throw new Error("deep")'}; }`,
        ),
        'Deno.test("deep stack", () => { f0(); });',
      ].join("\n"),
    );
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "test",
        "--no-check",
        "--no-config",
        "--v8-flags=--stack-trace-limit=100",
        "a_test.ts",
      ],
      cwd: dir,
      stdin: "null",
    }).output();
    const text = new TextDecoder().decode(output.stdout);
    const report = failureReport(text);
    const headings = report.filter((line) => / => \S+:\d+:\d+$/.test(line));
    assert.deepEqual(headings, [
      "fails => ./a_test.ts:1:6",
      "outer ... inner => ./a_test.ts:3:43",
      "deep stack => ./a_test.ts:44:6",
    ]);
    assert.ok(report.includes("error: Error: first line"), report.join("\n"));
    assert.ok(report.includes("second line"));
    assert.ok(report.includes("error: Error: in a step"));
    assert.ok(!report.some((line) => line.includes("passes")));
    assert.ok(
      !report.some((line) => line.includes("\x1b") || line.trim() === ""),
      "colours and blank lines are left out",
    );
    // Each error is cut to its first lines: the deep one printed more than the 25 kept.
    const deep = report.slice(report.indexOf("deep stack => ./a_test.ts:44:6"));
    assert.equal(deep.length, 25, deep.join("\n"));
    assert.ok(deep.includes("error: Error: deep"));
    // deno-lint-ignore no-control-regex
    const frames = text.replace(/\x1b\[[0-9;]*m/g, "").match(/ at f\d+ /g) ?? [];
    assert.ok(frames.length >= 40, `the stack printed is longer: ${frames.length} frames`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a failed test that depends on the clock is named as such, with the command that reruns its file alone", async () => {
  // A real `deno test` run: the marker must survive deno's own form of a failure's heading.
  const dir = await Deno.makeTempDir({ prefix: "flowrun-timing-report-" });
  try {
    await Deno.writeTextFile(
      `${dir}/a_test.ts`,
      [
        `Deno.test("answers in time ${TIMING}", () => { throw new Error("took 2100 ms"); });`,
        'Deno.test("plain", () => { throw new Error("wrong"); });',
        `Deno.test("passes ${TIMING}", () => {});`,
      ].join("\n"),
    );
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["test", "--no-check", "--no-config", "a_test.ts"],
      cwd: dir,
      stdin: "null",
    }).output();
    const report = timingReport(failureReport(new TextDecoder().decode(output.stdout)));
    assert.deepEqual(report, [
      `answers in time ${TIMING}: rerun alone: deno test -A ./a_test.ts`,
    ]);
    // A file run alone at the end is timing-sensitive whatever its tests' names.
    assert.deepEqual(timingReport([`x => ./${ALONE[0]}:1:1`]), [
      `x: rerun alone: deno test -A ./${ALONE[0]}`,
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the quick part's batches hold each of its files once, the waiting ones first", async () => {
  const root = new URL("../", import.meta.url).pathname;
  const files = await testFiles(root);
  assert.ok(files.includes("tests/test_task_test.ts"));
  assert.ok(!files.some((file) => file.startsWith("node_modules/") || file.startsWith(".git/")));
  for (const name of [...SLOW, ...ALONE, ...OWN_PROCESS, ...WAITING_FIRST]) {
    assert.ok(files.includes(name), name);
  }
  const elsewhere = [...SLOW, ...ALONE, ...OWN_PROCESS];
  const quick = files.filter((file) => !elsewhere.includes(file));
  const cut = batches(quick, WAITING_FIRST, 3);
  assert.equal(cut.length, 3);
  assert.deepEqual(cut.flat().sort(), quick);
  assert.deepEqual(cut[0].slice(0, WAITING_FIRST.length), [...WAITING_FIRST]);
  const sizes = cut.map((batch) => batch.length);
  assert.ok(Math.max(...sizes) - Math.min(...sizes) <= WAITING_FIRST.length + 1, `${sizes}`);
});

Deno.test("only the files scripts/test.ts runs in a process of their own start a gRPC server in the test process", async () => {
  // Deno 2.9.6 aborts the whole process when a GOAWAY reaches a node:http2 session
  // (denoland/deno#36788): a server started in a shared process could take every file's
  // results with it. Elsewhere, tests/kinds/grpc/served.ts runs the server in a process of its own.
  const root = new URL("../", import.meta.url).pathname;
  const starts =
    /\b(startAtlas|officialServer|specServer|reflectionServer|echoServer|startTlsGuide)\(|new grpc\.Server\(/;
  const found: string[] = [];
  for (const file of await testFiles(root)) {
    if (starts.test(await Deno.readTextFile(`${root}${file}`))) found.push(file);
  }
  assert.deepEqual(found.filter((file) => !OWN_PROCESS.includes(file)), []);
  // The guard sees what it guards: the file still run alone starts its own servers.
  assert.deepEqual(found, [...OWN_PROCESS]);
});
