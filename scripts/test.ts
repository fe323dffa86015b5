/**
 * `deno task test`: the whole suite, every JSDoc `@example` included, in two parts, after
 * `deno check --doc-only` has type-checked every example (tests/doc_examples_test.ts runs them
 * all in one process: `deno test --doc` started an isolate for each, 3.6 CPU-minutes for 1,100).
 *
 * 1. Every test file but the few in {@linkcode ALONE}, `deno test --parallel` (two files per core,
 *    or `DENO_JOBS`), the files in {@linkcode SLOW_FIRST} started first so that the longest ones
 *    (the browser, the fuzzers, the example suite) run beside the many short ones instead of
 *    being the last ones running.
 * 2. The files in {@linkcode ALONE}, one at a time: they hold flowrun to wall-clock limits (a
 *    regular expression stopped within 1.5 s, a schema that does not compile given up within
 *    seconds, SIGINT answered within two), which a file running beside them on the same cores
 *    would make them miss.
 *
 * Before them the bundle is written (`deno task bundle`), which the CLI processes the tests start
 * then run. Both parts run even when the first fails; the last line adds them up in `deno test`'s own form
 * (`ok | N passed | N failed`), which `.ci/run` reads, and the exit code is 1 if either failed.
 * With arguments (`deno task test tests/run/`) it is one plain `deno test --parallel` of those.
 *
 * Test files that run in parallel share one process: a test must not set environment variables
 * a CLI it starts (or another file's) would inherit, nor change the working directory.
 *
 * @module
 */

import { currentBundle } from "../cli/current_bundle.ts";
import { writeBundle } from "./bundle.ts";

/**
 * Started first in the parallel part, longest first: each took 8 s or more run alone (the sum of
 * its tests' times in `deno test --reporter=junit`, on two busy cores).
 */
export const SLOW_FIRST: readonly string[] = [
  "tests/doc_examples_test.ts",
  "tests/cli/convert_curl_heldout_test.ts",
  "tests/leak_test.ts",
  "tests/cli/convert_openapi_heldout_test.ts",
  "tests/http/oauth2_device_test.ts",
  "tests/cli/convert_postman_test.ts",
  "tests/cli/convert_openapi_test.ts",
  "tests/cli/convert_openapi_box_test.ts",
  "tests/cli/reproduce_test.ts",
  "tests/secrets/redactor_test.ts",
  "tests/cli/robust_test.ts",
  "tests/load/fast_yaml_test.ts",
  "tests/run/merge_test.ts",
  "tests/http/tls_proxy_test.ts",
  "tests/cli/install_test.ts",
  "tests/cases_test.ts",
  "tests/http/response_fuzz_test.ts",
  "tests/http/body_limits_test.ts",
  "tests/select/tags_test.ts",
  "tests/load/limits_test.ts",
  "tests/check/schema_test.ts",
  "tests/http/network_options_test.ts",
  "tests/run/limits_test.ts",
  "tests/fuzz_test.ts",
  "tests/convert/two_recordings_test.ts",
  "tests/convert/verify_test.ts",
  "tests/report/console_modes_test.ts",
  "tests/report/html_test.ts",
  "tests/run/setup_test.ts",
  "tests/select/shard_time_test.ts",
  "tests/load/prototype_keys_test.ts",
  "tests/convert/apps_test.ts",
  "tests/cli/cli_test.ts",
  "tests/cli/ci_test.ts",
  "tests/http/send_test.ts",
  "tests/examples_suite_test.ts",
  "tests/convert/har_browser_test.ts",
  "tests/load/fuzz_test.ts",
  "tests/convert/taskboard_test.ts",
];

/** Run after the parallel part, each in a process of its own: their tests assert wall-clock limits. */
export const ALONE: readonly string[] = [
  "tests/check/bounds_test.ts",
  "tests/_util/regex_test.ts",
  "tests/red_team_b_test.ts",
];

/** What one `deno test` run counted. */
export interface Tally {
  passed: number;
  failed: number;
  ignored: number;
}

/** Lines of each failure's error kept for the end of the output (the first ones say what failed). */
const ERROR_LINES = 25;

/**
 * The failures of a `deno test` output's ERRORS section, each its heading (`name => file:line:col`)
 * and the first lines of its error, so that the end of a long run says what failed: `.ci/run`'s
 * last lines are often all a reader of a red CI gets.
 *
 * @example
 * ```ts
 * import { failureReport } from "./test.ts";
 * import assert from "node:assert/strict";
 * const output = [
 *   " ERRORS ",
 *   "",
 *   "a test => ./tests/a_test.ts:3:6",
 *   "error: AssertionError: Expected 1 to equal 2",
 *   "    at file:///x/tests/a_test.ts:4:3",
 *   "",
 *   " FAILURES ",
 *   "",
 *   "a test => ./tests/a_test.ts:3:6",
 *   "",
 *   "FAILED | 0 passed | 1 failed (1s)",
 * ].join("\n");
 * assert.deepEqual(failureReport(output), [
 *   "a test => ./tests/a_test.ts:3:6",
 *   "error: AssertionError: Expected 1 to equal 2",
 *   "    at file:///x/tests/a_test.ts:4:3",
 * ]);
 * assert.deepEqual(failureReport("ok | 1 passed | 0 failed (1s)"), []);
 * ```
 */
export function failureReport(output: string): string[] {
  // deno-lint-ignore no-control-regex
  const lines = output.replace(/\x1b\[[0-9;]*m/g, "").split("\n");
  const start = lines.findLastIndex((l) => l.trim() === "ERRORS");
  if (start < 0) return [];
  const end = lines.findIndex((l, i) => i > start && l.trim() === "FAILURES");
  const kept: string[] = [];
  let inBlock = 0;
  for (const line of lines.slice(start + 1, end < 0 ? undefined : end)) {
    if (/ => \S+:\d+:\d+$/.test(line)) inBlock = 0;
    if (line.trim() === "" || inBlock++ >= ERROR_LINES) continue;
    kept.push(line);
  }
  return kept;
}

/**
 * The counts of `deno test`'s summary line (`ok | 3 passed (2 steps) | 1 failed | 2 ignored (1s)`),
 * the last one in `output`; undefined when there is none (the run did not get that far).
 *
 * @example
 * ```ts
 * import { tally } from "./test.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(tally("x\nFAILED | 3 passed (2 steps) | 1 failed | 2 ignored (1s)\n"), {
 *   passed: 3,
 *   failed: 1,
 *   ignored: 2,
 * });
 * assert.equal(tally("error: Module not found"), undefined);
 * ```
 */
export function tally(output: string): Tally | undefined {
  // deno test colours its summary even into a pipe.
  // deno-lint-ignore no-control-regex
  const lines = output.replace(/\x1b\[[0-9;]*m/g, "").split("\n");
  const line = lines.findLast((l) => /^(ok|FAILED) \| \d+ passed/.test(l));
  if (line === undefined) return undefined;
  const count = (word: string) => Number(line.match(new RegExp(`(\\d+) ${word}`))?.[1] ?? 0);
  return { passed: count("passed"), failed: count("failed"), ignored: count("ignored") };
}

/**
 * The closing line for several runs, in `deno test`'s form; a run without a summary counts as one
 * failure, so a part that could not start is not a pass.
 *
 * @example
 * ```ts
 * import { summaryLine } from "./test.ts";
 * import assert from "node:assert/strict";
 * const runs = [{ passed: 5, failed: 0, ignored: 1 }, { passed: 2, failed: 1, ignored: 0 }];
 * assert.equal(summaryLine(runs, 90_000), "FAILED | 7 passed | 1 failed | 1 ignored (1m30s)");
 * assert.equal(summaryLine([undefined], 1_000), "FAILED | 0 passed | 1 failed (1s)");
 * ```
 */
export function summaryLine(runs: readonly (Tally | undefined)[], ms: number): string {
  const sum = { passed: 0, failed: 0, ignored: 0 };
  for (const run of runs) {
    sum.passed += run?.passed ?? 0;
    sum.failed += run?.failed ?? 1;
    sum.ignored += run?.ignored ?? 0;
  }
  const seconds = Math.round(ms / 1000);
  const time = seconds >= 60 ? `${Math.floor(seconds / 60)}m${seconds % 60}s` : `${seconds}s`;
  const ignored = sum.ignored > 0 ? ` | ${sum.ignored} ignored` : "";
  return `${
    sum.failed > 0 ? "FAILED" : "ok"
  } | ${sum.passed} passed | ${sum.failed} failed${ignored} (${time})`;
}

/**
 * Test files run at once in the parallel part: two per core unless `DENO_JOBS` says otherwise.
 * Most files spend their time waiting (on the servers, subprocesses and timers their tests start:
 * OAuth2 device polls, signals, interop servers), so one file per core left the cores half idle.
 */
function parallelJobs(): string {
  return Deno.env.get("DENO_JOBS") ?? String(2 * (navigator.hardwareConcurrency || 1));
}

/** Runs `deno test` with these arguments, its output passed on as it comes; gives its counts. */
async function denoTest(
  args: string[],
  jobs?: string,
): Promise<{ code: number; tally: Tally | undefined; failures: string[] }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["test", "--allow-all", ...args],
    ...(jobs ? { env: { DENO_JOBS: jobs } } : {}),
    cwd: new URL("..", import.meta.url).pathname,
    stdout: "piped",
    stderr: "inherit",
    stdin: "null",
  }).spawn();
  // Only the end is kept: the errors and the summary come last, and the whole output is megabytes.
  let tail = "";
  const decoder = new TextDecoder();
  for await (const chunk of child.stdout) {
    await Deno.stdout.write(chunk);
    tail = (tail + decoder.decode(chunk, { stream: true })).slice(-262_144);
  }
  const { code } = await child.status;
  return { code, tally: tally(tail), failures: failureReport(tail) };
}

/**
 * deno.json with the files of {@linkcode ALONE} left out of `deno test`, written to a temporary
 * directory: `--ignore` is dropped as soon as `deno test` is given more than one path, and the
 * parallel part is given {@linkcode SLOW_FIRST} before `.`. Its paths are made absolute, since the
 * file is read from elsewhere (a new path-valued key in deno.json needs the same here); the lock
 * file is passed on its own.
 */
async function parallelConfig(root: string): Promise<string> {
  const config = JSON.parse(await Deno.readTextFile(`${root}/deno.json`));
  const absolute = (paths: string[] = []) => paths.map((path) => `${root}/${path}`);
  config.exclude = absolute(config.exclude);
  config.test = { exclude: absolute(ALONE as string[]) };
  // The package imports itself by name (docs/versioning.md); "exports" would be read from /tmp.
  config.imports[config.name] = `${root}/${config.exports.replace(/^\.\//, "")}`;
  delete config.name;
  delete config.exports;
  delete config.publish;
  const dir = await Deno.makeTempDir({ prefix: "flowrun-test-task-" });
  await Deno.writeTextFile(`${dir}/deno.json`, JSON.stringify(config));
  return `${dir}/deno.json`;
}

/**
 * Writes the bundle first (scripts/bundle.ts), so the CLI the tests start runs what an installed
 * flowrun runs, each process about 25 ms sooner. If it cannot be written, the tests run from
 * source (tests/cli/bundle_test.ts then fails and says why).
 */
async function bundle(): Promise<void> {
  try {
    const { files, inputs } = await writeBundle();
    console.log(`bundle: ${files} files from ${inputs} inputs`);
  } catch (error) {
    console.log(`bundle: not written, the CLI runs from source (${(error as Error).message})`);
  }
}

/** The Markdown files under `dir`, outside the folders tests and builds write to. */
async function markdownFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory && !/^(\.git|node_modules|dist|out)$/.test(entry.name)) {
      found.push(...await markdownFiles(path));
    } else if (entry.isFile && entry.name.endsWith(".md")) {
      found.push(path);
    }
  }
  return found;
}

/**
 * Type-checks every runnable example of the JSDoc and Markdown (`deno check --doc-only`), which
 * tests/doc_examples_test.ts runs; counted as one test.
 */
async function checkExamples(root: string): Promise<Tally> {
  console.log("::: deno check --doc-only (every example's types)");
  const { success } = await new Deno.Command(Deno.execPath(), {
    args: ["check", "--quiet", "--doc-only", ".", ...await markdownFiles(root)],
    cwd: root,
    stdin: "null",
  }).spawn().status;
  return { passed: success ? 1 : 0, failed: success ? 0 : 1, ignored: 0 };
}

/**
 * Says whether the bundle was still the one cli.ts runs when the tests ended: had an input
 * changed during the run, the CLI processes after it ran from source, and the run would not
 * have shown what the bundle does.
 */
async function bundleStillCurrent(): Promise<void> {
  const current = await currentBundle();
  console.log(
    current
      ? "bundle: still current at the end; the CLI processes ran it"
      : "bundle: not current at the end; CLI processes after the change ran from source",
  );
}

async function main(args: string[]): Promise<number> {
  if (args.length > 0) return (await denoTest(["--doc", "--parallel", ...args])).code;
  const started = performance.now();
  await bundle();
  const root = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
  const examples = await checkExamples(root);
  const config = await parallelConfig(root);
  const lock = `--lock=${root}/deno.lock`;
  let parallel;
  try {
    parallel = await denoTest([
      `--config=${config}`,
      lock,
      "--parallel",
      ...SLOW_FIRST,
      ".",
    ], parallelJobs());
  } finally {
    await Deno.remove(config.replace(/\/deno\.json$/, ""), { recursive: true });
  }
  // Each in a process of its own: a helper thread an earlier file left spinning on a runaway
  // pattern would otherwise take the CPU these limits are measured against.
  const alone = [];
  for (const file of ALONE) alone.push(await denoTest([file]));
  await bundleStillCurrent();
  const failures = [parallel, ...alone].flatMap((run) => run.failures);
  if (failures.length > 0) console.log(`\nWhat failed:\n${failures.join("\n")}`);
  const tallies = [examples, parallel.tally, ...alone.map((a) => a.tally)];
  console.log(`\n${summaryLine(tallies, performance.now() - started)}`);
  return examples.failed > 0 || parallel.code !== 0 || alone.some((a) => a.code !== 0) ? 1 : 0;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
