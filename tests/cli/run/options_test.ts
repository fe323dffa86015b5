import assert from "node:assert/strict";
import { RUN_OPTIONS, type RunHost, runPlan } from "../../../cli/run/options.ts";
import { UsageError } from "../../../lib/model/errors.ts";

/** A host with these environment variables, a terminal or not, that records the secrets learned. */
function host(env: Record<string, string> = {}, terminal = false): RunHost & { learned: string[] } {
  const learned: string[] = [];
  return {
    env: (name) => Object.hasOwn(env, name) ? env[name] : undefined,
    isTerminal: () => terminal,
    secret: (value) => void learned.push(value),
    learned,
  };
}

/** The usage error `runPlan(args)` throws, as `code: message`. */
function refusal(args: string[], h: RunHost = host()): string {
  try {
    runPlan(args, h);
  } catch (error) {
    assert.ok(error instanceof UsageError, String(error));
    return `${error.code}: ${error.message}`;
  }
  assert.fail(`no usage error for ${args.join(" ")}`);
}

Deno.test("a plan of paths alone has every default", () => {
  const plan = runPlan(["flows/", "b.yaml"], host());
  assert.deepEqual(plan, {
    paths: ["flows/", "b.yaml"],
    args: ["flows/", "b.yaml"],
    runId: undefined,
    timeoutMs: undefined,
    maxBody: undefined,
    maxBodyBytes: undefined,
    maxBodyMemory: undefined,
    bodyMemoryBytes: undefined,
    jobs: undefined,
    repeat: 1,
    workers: "auto",
    params: new Map(),
    varsFiles: [],
    envFiles: [],
    secretNames: new Set(),
    color: false,
    verbosity: 0,
    consoleMode: "compact",
    progress: false,
    network: {
      caFiles: [],
      cert: undefined,
      key: undefined,
      proxy: undefined,
      noProxy: undefined,
      insecure: false,
    },
    shard: undefined,
    shardTimings: undefined,
    authFile: undefined,
    allowCommands: undefined,
    fileRoot: undefined,
    artifacts: {
      junit: undefined,
      json: undefined,
      html: undefined,
      log: undefined,
      manifest: undefined,
      codequality: undefined,
      har: undefined,
    },
    cacheDir: undefined,
    filter: undefined,
    tags: undefined,
    setup: [],
    teardown: undefined,
    list: false,
    failFast: undefined,
    failOnFlaky: false,
    trace: undefined,
    cookieJar: undefined,
    annotations: true,
    traceLink: undefined,
  });
});

Deno.test("every option lands in its field of the plan", () => {
  const args = [
    "flows/",
    "--run-id=nightly-1",
    "--timeout",
    "30s",
    "--max-body",
    "10MiB",
    "--max-body-memory",
    "1MiB",
    "--jobs",
    "4",
    "--var",
    "a=1",
    "--var",
    "a=2",
    "--var",
    "token=x=y",
    "--vars-file",
    "v1.yaml",
    "--vars-file",
    "v2.yaml",
    "--env-file",
    ".env",
    "--secret",
    "TOKEN",
    "--secret",
    "TOKEN",
    "--color",
    "-vv",
    "--console",
    "failures",
    "--cacert",
    "ca1.pem",
    "--cacert",
    "ca2.pem",
    "--cert",
    "c.pem",
    "--key",
    "c.key",
    "--proxy",
    "http://u:pw@proxy:3128",
    "--no-proxy",
    "localhost, .internal",
    "--insecure",
    "--shard",
    "2/3",
    "--shard-timings",
    "old.json",
    "--out-dir",
    "out/",
    "--report-json",
    "r.json",
    "--report-codequality",
    "cq.json",
    "--report-har",
    "r.har",
    "--cache-dir",
    ".cache",
    "--filter",
    "login",
    "--filter",
    "*.yaml",
    "--tag",
    "smoke",
    "--setup",
    "s.yaml",
    "--teardown",
    "t.yaml",
    "--list",
    "--fail-fast",
    "--trace",
    "--cookie-jar",
    "--no-annotations",
    "--trace-link",
    "https://traces/{trace_id}",
  ];
  const h = host({}, true);
  const plan = runPlan(args, h)!;
  assert.deepEqual(plan.paths, ["flows/"]);
  assert.equal(plan.args, args);
  assert.equal(plan.runId, "nightly-1");
  assert.equal(plan.timeoutMs, 30_000);
  assert.equal(plan.maxBody, "10MiB");
  assert.equal(plan.maxBodyBytes, 10 * 1024 * 1024);
  assert.equal(plan.maxBodyMemory, "1MiB");
  assert.equal(plan.bodyMemoryBytes, 1024 * 1024);
  assert.equal(plan.jobs, 4);
  assert.deepEqual(plan.params, new Map([["a", "2"], ["token", "x=y"]]));
  assert.deepEqual(plan.varsFiles, ["v1.yaml", "v2.yaml"]);
  assert.deepEqual(plan.envFiles, [".env"]);
  assert.deepEqual(plan.secretNames, new Set(["TOKEN"]));
  assert.equal(plan.color, true);
  assert.equal(plan.verbosity, 2);
  assert.equal(plan.consoleMode, "failures");
  assert.equal(plan.progress, true);
  assert.deepEqual(plan.network, {
    caFiles: ["ca1.pem", "ca2.pem"],
    cert: "c.pem",
    key: "c.key",
    proxy: "http://u:pw@proxy:3128",
    noProxy: "localhost, .internal",
    insecure: true,
  });
  // The proxy's password is a secret before anything is printed.
  assert.deepEqual(h.learned, ["pw"]);
  assert.deepEqual(plan.shard, { index: 2, total: 3 });
  assert.deepEqual(plan.shardTimings, ["old.json"]);
  assert.deepEqual(plan.artifacts, {
    junit: "out/junit.xml",
    json: "r.json",
    html: "out/report.html",
    log: "out/run.log.ndjson",
    manifest: "out/manifest.json",
    codequality: "cq.json",
    har: "r.har",
  });
  assert.equal(plan.cacheDir, ".cache");
  assert.deepEqual(plan.filter, ["login", "*.yaml"]);
  assert.equal(plan.tags, "smoke");
  assert.deepEqual(plan.setup, ["s.yaml"]);
  assert.deepEqual(plan.teardown, ["t.yaml"]);
  assert.equal(plan.list, true);
  assert.equal(plan.failFast, true);
  assert.equal(plan.trace, true);
  assert.equal(plan.cookieJar, true);
  assert.equal(plan.annotations, false);
  assert.equal(plan.traceLink, "https://traces/{trace_id}");
});

Deno.test("--help plans nothing, whatever else is given", () => {
  assert.equal(runPlan(["--help"], host()), undefined);
  assert.equal(runPlan(["flows/", "-h", "--jobs", "0"], host()), undefined);
});

Deno.test("the console: -v shows every flow, a terminal shows detail and progress outside CI", () => {
  assert.equal(runPlan(["a.yaml"], host({}, true))!.consoleMode, "detailed");
  assert.equal(runPlan(["a.yaml"], host({}, false))!.consoleMode, "compact");
  assert.equal(runPlan(["a.yaml", "-v"], host({}, false))!.consoleMode, "detailed");
  assert.equal(runPlan(["a.yaml", "-v", "--console=compact"], host())!.consoleMode, "compact");
  assert.equal(runPlan(["a.yaml"], host({}, true))!.progress, true);
  assert.equal(runPlan(["a.yaml"], host({ CI: "true" }, true))!.progress, false);
});

Deno.test("colours: the flags, then FORCE_COLOR, then NO_COLOR, then the terminal", () => {
  const color = (args: string[], env: Record<string, string>, terminal: boolean) =>
    runPlan(["a.yaml", ...args], host(env, terminal))!.color;
  assert.equal(color(["--color", "--no-color"], {}, true), false);
  assert.equal(color(["--color"], { NO_COLOR: "1" }, false), true);
  assert.equal(color([], { FORCE_COLOR: "1", NO_COLOR: "1" }, false), true);
  assert.equal(color([], { FORCE_COLOR: "false" }, true), false);
  assert.equal(color([], { NO_COLOR: "1" }, true), false);
  assert.equal(color([], {}, true), true);
  assert.equal(color([], {}, false), false);
});

Deno.test("--shard auto reads the CI's variables through the host", () => {
  const plan = runPlan(
    ["a.yaml", "--shard", "auto"],
    host({ CIRCLE_NODE_INDEX: "0", CIRCLE_NODE_TOTAL: "3" }),
  );
  assert.deepEqual(plan!.shard, {
    index: 1,
    total: 3,
    source: "CircleCI CIRCLE_NODE_INDEX/CIRCLE_NODE_TOTAL",
  });
  assert.match(refusal(["a.yaml", "--shard", "auto"]), /^no-shard-env: /);
});

Deno.test("every option at fault is a usage error, worded as flowrun words it", () => {
  const cases: [string[], string][] = [
    [["a.yaml", "--jbos", "2"], 'bad-option: Unknown option "--jbos".'],
    [["a.yaml", "--timeout"], 'bad-option: Option "--timeout" needs a value.'],
    [["--jobs", "2"], "no-paths: No flow files given."],
    [
      ["a.yaml", "--run-id", "a b"],
      'bad-run-id: Run id "a b" may only contain letters, digits, ".", "_" and "-".',
    ],
    [
      ["a.yaml", "--timeout", "soon"],
      'bad-timeout: Expected --timeout to be a positive duration, got "soon".',
    ],
    [["a.yaml", "--timeout", "1000h"], /^bad-timeout: Expected --timeout to be at most /.source],
    [
      ["a.yaml", "--max-body", "1"],
      'bad-max-body: Expected --max-body to be a size from 1KiB to 4GiB, got "1".',
    ],
    [
      ["a.yaml", "--max-body-memory", "1GiB"],
      'bad-max-body-memory: Expected --max-body-memory to be a size from 1KiB to 500MiB, got "1GiB".',
    ],
    [
      ["a.yaml", "--jobs", "0"],
      'bad-jobs: Expected --jobs to be a positive number of flows, got "0".',
    ],
    [
      ["a.yaml", "--jobs", "10001"],
      'bad-jobs: Expected --jobs to be at most 10000, got "10001".',
    ],
    [["a.yaml", "--var", "novalue"], 'bad-var: Expected --var NAME=VALUE, got "novalue".'],
    [["a.yaml", "--var", "RUN_ID=1"], "bad-var: RUN_ID cannot be set with --var."],
    [
      ["a.yaml", "--console", "loud"],
      'bad-console: --console "loud" is not a console mode.',
    ],
    [["a.yaml", "--cert", "c.pem"], "bad-cert: --cert needs --key."],
    [["a.yaml", "--key", "c.key"], "bad-cert: --key needs --cert."],
    [
      ["a.yaml", "--proxy", "ftp://u:hunter2@proxy"],
      'bad-proxy: --proxy "ftp://u:***@proxy" is not a proxy URL.',
    ],
    [
      ["a.yaml", "--shard", "4/3"],
      'bad-shard: Expected --shard to be I/N with whole numbers 1 <= I <= N, got "4/3".',
    ],
    [
      ["a.yaml", "--shard-timings", "old.json"],
      "bad-shard-timings: --shard-timings balances a sharded run, but there is no --shard.",
    ],
  ];
  for (const [args, expected] of cases) {
    const got = refusal(args);
    if (expected.startsWith("^")) assert.match(got, new RegExp(expected), args.join(" "));
    else assert.equal(got, expected, args.join(" "));
  }
});

Deno.test("options are checked in order: the first at fault is the one reported", () => {
  assert.match(refusal(["a.yaml", "--jobs", "0", "--run-id", "a b"]), /^bad-run-id: /);
  assert.match(refusal(["a.yaml", "--console", "x", "--var", "bad"]), /^bad-var: /);
  // What is loaded (load_step.ts: --var, then the shard) is checked before the console and TLS.
  assert.match(refusal(["a.yaml", "--shard", "9/1", "--cert", "c.pem"]), /^bad-shard: /);
  assert.match(refusal(["a.yaml", "--cert", "c.pem", "--console", "x"]), /^bad-console: /);
});

Deno.test("a proxy's password is learned before a bad proxy URL is refused", () => {
  const h = host();
  refusal(["a.yaml", "--proxy", "ftp://u:hunter2@proxy"], h);
  assert.deepEqual(h.learned, ["hunter2"]);
});

Deno.test("RUN_OPTIONS names every option the plan reads", () => {
  assert.equal(RUN_OPTIONS.verbose.short, "v");
  assert.equal(RUN_OPTIONS.help.short, "h");
  // 40, --auth-file and what it brings, --retries, --fail-on-flaky, --history, --allow-commands,
  // --workers, --file-root, --repeat and --concurrency.
  assert.equal(Object.keys(RUN_OPTIONS).length, 53);
});

Deno.test("--repeat and --concurrency land in the plan; --concurrency is --jobs", () => {
  assert.equal(runPlan(["a.yaml"], host())!.repeat, 1);
  const plan = runPlan(["a.yaml", "--repeat", "100", "--concurrency", "8"], host())!;
  assert.equal(plan.repeat, 100);
  assert.equal(plan.jobs, 8);
  assert.equal(runPlan(["a.yaml", "--concurrency", "3", "--jobs", "3"], host())!.jobs, 3);
  assert.equal(
    refusal(["a.yaml", "--repeat", "0"]),
    'bad-repeat: Expected --repeat to be a positive number of runs, got "0".',
  );
  assert.equal(
    refusal(["a.yaml", "--repeat", "1000001"]),
    'bad-repeat: Expected --repeat to be at most 1000000, got "1000001".',
  );
  assert.equal(
    refusal(["a.yaml", "--concurrency", "0"]),
    'bad-concurrency: Expected --concurrency to be a positive number of flow runs at once, got "0".',
  );
  assert.equal(
    refusal(["a.yaml", "--concurrency", "4", "--jobs", "2"]),
    'bad-concurrency: --concurrency "4" and --jobs "2" disagree; they are one option.',
  );
});

Deno.test("--retries, --fail-on-flaky and --history land in the plan, bounded", () => {
  const plan = runPlan(
    ["a.yaml", "--retries", "2", "--fail-on-flaky", "--history", "r1.json", "--history", "r2.json"],
    host(),
  )!;
  assert.equal(plan.retries, 2);
  assert.equal(plan.failOnFlaky, true);
  assert.deepEqual(plan.history, ["r1.json", "r2.json"]);
  assert.equal(runPlan(["a.yaml", "--retries", "0"], host())!.retries, 0);
  for (const bad of ["11", "two", "1.5", ""]) {
    assert.equal(
      refusal(["a.yaml", "--retries", bad]),
      `bad-retries: --retries "${bad}" is not a number of re-runs from 0 to 10.`,
    );
  }
  const many = Array.from({ length: 21 }, (_, i) => ["--history", `r${i}.json`]).flat();
  assert.match(
    refusal(["a.yaml", ...many]),
    /^bad-history: --history is given 21 times; at most 20/,
  );
});

Deno.test("--workers: a number of threads or auto, auto by default", () => {
  assert.equal(runPlan(["a.yaml"], host())!.workers, "auto");
  assert.equal(runPlan(["a.yaml", "--workers", "auto"], host())!.workers, "auto");
  assert.equal(runPlan(["a.yaml", "--workers", "4"], host())!.workers, 4);
  for (const bad of ["0", "two", "1.5"]) {
    assert.match(refusal(["a.yaml", "--workers", bad]), /^bad-workers: Expected --workers to be/);
  }
});
