/**
 * `flowrun run`: load and check the flows, run them, and write every
 * requested artifact whatever happens — a failure, a flow file with problems
 * (the reports then say so: nothing ran), a signal at any moment (listening
 * starts before loading and ends after the manifest), a console nobody reads
 * any more, or an artifact that cannot be written.
 *
 * Takes the arguments of `flowrun run`; gives the exit code, the console
 * output and the requested artifacts. The arguments become a
 * {@linkcode RunPlan} first (options.ts: every option checked, nothing
 * read); this module executes it as a line of stages: read the input files
 * → load the flows → open the artifacts → run (or report why nothing ran)
 * → finish (annotations, log, manifest, exit code). Modules only some runs
 * need are imported when they do.
 *
 * Where things are: options.ts (a new option: its spec, its field of the
 * plan, its check; load_step.ts when it changes what is loaded, which
 * validate shares; rerun_options.ts for --retries, --fail-on-flaky and
 * --history), inputs.ts (files read before loading; history.ts for the
 * --history reports), secrets.ts
 * (secrets known before output; the flows' environment), warnings.ts,
 * outputs.ts (no report over a flow file), artifacts.ts with spool.ts (the
 * report files and the log), flow_sources.ts (the flow files' bytes for the
 * console and the manifest), reproduce.ts (the rerun command),
 * invalid.ts (a run where nothing ran), ci_annotations.ts, provenance.ts
 * and manifest.ts.
 *
 * @module
 */
import "../run_graph.ts";
import * as io from "../../lib/io/mod.ts";
import { loadFlowsDeferred } from "../../lib/load/suite.ts";
import { type Flow, isDeferred } from "../../lib/model/flow.ts";
import { PARSED_FLOW_WINDOW } from "../../lib/model/limits.ts";
import type { RunResult } from "../../lib/model/result.ts";
import { consoleReporter } from "../../lib/report/console.ts";
import { combineReporters } from "../../lib/report/reporter.ts";
import { runFlows } from "../../lib/run/flows.ts";
import { newRunId } from "../../lib/run/options.ts";
import { Artifacts } from "./artifacts.ts";
import { ciAnnotations } from "./ci_annotations.ts";
import { EXIT } from "../exit.ts";
import { FlowSources } from "./flow_sources.ts";
import { commandHelp } from "../usage.ts";
import { err, out, redactor } from "../output.ts";
import { interruptCode, type Interrupts, listenForInterrupts } from "../signals.ts";
import { readNetwork } from "./inputs.ts";
import { problemsText, replay } from "./invalid.ts";
import { loadOptionsOf, loadProblems, readLoadInputs } from "./load_step.ts";
import { shortSecretWarning } from "./secrets.ts";
import { writeManifest } from "./manifest.ts";
import { RUN_OPTIONS, type RunHost, type RunPlan, runPlan } from "./options.ts";
import { refuseFlowFilesAsOutputs } from "./outputs.ts";
import { provenance } from "./provenance.ts";
import { repeatedFlows, repeatRun } from "./repeat.ts";
import { reproducer } from "./reproduce.ts";
import { startedAs, startFacts } from "./started_as.ts";
import { insecureWarning, loadWarnings } from "./warnings.ts";
import { emptyFilesWarning } from "./empty_files.ts";
import { workerOptionsOf } from "./workers_option.ts";

export { RUN_OPTIONS, type RunHost, type RunPlan, runPlan } from "./options.ts";

/** This process, as the plan reads it. */
const HOST: RunHost = {
  env: io.readEnv,
  isTerminal: () => Deno.stdout.isTerminal(),
  secret: (value) => redactor.add(value),
};

/**
 * Runs `flowrun run` with its arguments and returns the exit code. cli.ts
 * passes the interrupts it listened for before this module loaded (a
 * signal while the run's 90 files load still ends with every artifact);
 * without them, listening starts here.
 *
 * @example
 * ```ts ignore
 * import { run } from "./mod.ts";
 * Deno.exit(await run(["examples/flows", "--out-dir", "out"]));
 * ```
 */
export async function run(args: string[], listening?: Interrupts): Promise<number> {
  const plan = runPlan(args, HOST);
  if (!plan) {
    out(commandHelp("run", RUN_OPTIONS));
    return EXIT.passed;
  }
  const interrupts = listening ?? listenForInterrupts();
  const cleanup: (() => void)[] = [];
  try {
    const inputs = await readInputs(plan);
    const suite = await loadSuite({ plan, inputs, interrupts, cleanup });
    // --repeat N: N iterations of each flow, run as flows of the one run (cli/run/repeat.ts).
    if (!plan.list) suite.loaded.flows = await repeatedFlows(suite.loaded.flows, plan.repeat);
    if (plan.list) {
      for (const file of suite.loaded.files) out(`${file}\n`);
      await suite.flowCache?.flush();
      return EXIT.passed;
    }
    const opened = await openOutputs({ plan, inputs, suite, interrupts });
    const ran = opened.problems.length > 0
      ? await reportInvalid({ plan, suite, opened })
      : await runSuite({ plan, inputs, suite, interrupts, opened });
    return await finish({ plan, inputs, suite, interrupts, opened }, ran);
  } finally {
    for (const done of cleanup) done();
    if (!listening) interrupts.dispose();
  }
}

/** What a run reads before loading its flows. */
type Inputs = Awaited<ReturnType<typeof readInputs>>;

/**
 * The input files (variables, network, shard timings) read and the secrets
 * known, before anything is printed; then the artifact paths proven
 * writable. Precedence: flow vars < `--vars-file` (later files win) <
 * `--var`; the process environment wins over `--env-file`.
 */
async function readInputs(plan: RunPlan) {
  // A given run id is no secret, even inside a --var or --vars-file one: declared before they are.
  if (plan.runId !== undefined) redactor.addPublic(plan.runId);
  // A secret too short to mask is named once, before anything else is printed.
  const short = new Set<string>();
  const inputs = await readLoadInputs(plan, {
    add: (value) => redactor.add(value),
    short: (name) => void (!short.has(name) && short.add(name) && err(shortSecretWarning(name))),
  });
  const network = await readNetwork(plan.network, io.readText);
  // Only runs that ask for coverage load its modules and read its documents.
  const coverage = plan.coverage &&
    await (await import("./coverage.ts")).coverageCollector(plan.coverage);
  // Only the streaks of earlier runs are kept of the --history reports (read by runs given some).
  const history = plan.history?.length
    ? await (await import("./history.ts")).readHistory(plan.history)
    : undefined;
  for (const path of Object.values(plan.artifacts)) if (path) await io.ensureWritable(path);
  return { ...inputs, network, coverage, history };
}

/** The flows as loaded, and what holds them. */
type Suite = Awaited<ReturnType<typeof loadSuite>>;

/** Loads and checks the selected flows, and warns of what loading found. */
async function loadSuite(
  { plan, inputs, interrupts, cleanup }: {
    plan: RunPlan;
    inputs: Inputs;
    interrupts: Interrupts;
    cleanup: (() => void)[];
  },
) {
  const startedAt = new Date().toISOString();
  const flowCache = plan.cacheDir
    ? io.flowCacheIn(plan.cacheDir, { warn: (w) => err(`warning[${w.code}]: ${w.message}\n`) })
    : undefined;
  // Past the window, checked flows wait for their turn on disk, as bytes and as checked JSON
  // (and so do the kept steps of failed flows): flat memory at any suite size.
  const spill = io.byteSpill();
  cleanup.push(spill.close);
  const loaded = await loadFlowsDeferred(plan.paths, {
    // The --openapi documents the user named may be read by the flows' openapi: checks too.
    ...loadOptionsOf(plan, inputs, plan.coverage?.documents),
    ...(flowCache ? { cache: flowCache } : {}),
    spill,
    signal: interrupts.signal,
  }, PARSED_FLOW_WINDOW);
  for (const warning of loadWarnings(loaded.warnings, plan.params)) err(warning);
  // (A deferred flow never sets insecure: such flows stay parsed.)
  const parsed = [
    ...loaded.setup,
    ...loaded.flows.filter((f): f is Flow => !isDeferred(f)),
    ...loaded.teardown,
  ];
  const insecure = insecureWarning(inputs.network?.insecure === true, parsed);
  if (insecure) err(insecure);
  // An empty file a step sends is most often a placeholder still to fill: said on every run
  // (of the flows held parsed; a suite of thousands holds most as bytes until they run).
  const empty = emptyFilesWarning(parsed);
  if (empty) err(empty);
  return { startedAt, flowCache, spill, loaded };
}

/** The run's outputs, open, and the problems that keep it from running. */
type Opened = Awaited<ReturnType<typeof openOutputs>>;

/**
 * Opens the artifacts and their reporters, once no artifact would be
 * written over a flow file; a filter that selected nothing is a problem.
 */
async function openOutputs(
  { plan, inputs, suite, interrupts }: {
    plan: RunPlan;
    inputs: Inputs;
    suite: Suite;
    interrupts: Interrupts;
  },
) {
  const { loaded } = suite;
  await refuseFlowFilesAsOutputs(plan.artifacts, [...loaded.files, ...loaded.included]);
  const runId = plan.runId ?? newRunId();
  const artifacts = await Artifacts.open(plan.artifacts, interrupts.writes);
  // One answer for the reproduce lines and the manifest, found when first asked.
  let startWords: readonly string[] | undefined;
  const started = () => startWords ??= startedAs(startFacts());
  const reproduce = reproducer({
    plan,
    isSecret: inputs.secrets.isSecret,
    runId,
    self: started,
    redact: (text) => redactor.redact(text),
  });
  const history = inputs.history &&
    (await import("./history.ts")).historyOf(inputs.history, loaded.files);
  const reporters = await artifacts.reporters({
    history: history && ((flow) => history.of(flow)),
    traceLink: shownTraceLink(plan),
    shard: plan.shard,
    reproduce,
    // Only the HTML report shows where the run happened.
    provenance: plan.artifacts.html ? await provenance(io.readEnv, inputs.envRead) : undefined,
  });
  const sources = new FlowSources(
    loaded.bytes,
    [...loaded.setup, ...loaded.flows, ...loaded.teardown],
    plan.artifacts.manifest ? (await import("../../lib/report/manifest.ts")).sha256Hex : undefined,
  );
  const problems = await loadProblems(plan, loaded);
  return { runId, artifacts, reproduce, started, reporters, sources, problems, history };
}

/**
 * `--trace-link` as the console and the HTML report show it: a value the user wrote, which may hold
 * a secret of the run (a key in its query) as the command line the manifest masks does.
 */
function shownTraceLink(plan: RunPlan): string | undefined {
  return plan.traceLink && redactor.redact(plan.traceLink);
}

/** How the run went: its result and the exit code it calls for. */
interface Ran {
  result: RunResult;
  code: number;
}

/** Nothing ran: prints the problems and lets every reporter write a run that sent nothing. */
async function reportInvalid(
  { plan, suite, opened }: { plan: RunPlan; suite: Suite; opened: Opened },
): Promise<Ran> {
  err(problemsText(opened.problems, plan.color));
  const { invalidRunResult } = await import("../../lib/run/invalid_run.ts");
  const result = invalidRunResult({
    run_id: opened.runId,
    started_at: suite.startedAt,
    problems: opened.problems,
    files: suite.loaded.files,
  });
  await replay(combineReporters(...opened.reporters), result);
  return { result, code: EXIT.usage };
}

/** Runs the flows with the console and every artifact's reporter. */
async function runSuite(
  { plan, inputs, suite, interrupts, opened }: {
    plan: RunPlan;
    inputs: Inputs;
    suite: Suite;
    interrupts: Interrupts;
    opened: Opened;
  },
): Promise<Ran> {
  const console = opened.artifacts.masks.reporter(consoleReporter({
    write: out,
    color: plan.color,
    mode: plan.consoleMode,
    progress: plan.progress,
    verbose: plan.verbosity,
    sourceLine: opened.sources.sourceLine,
    reproduce: opened.reproduce,
    traceLink: shownTraceLink(plan),
    history: opened.history,
  }));
  const repeat = await repeatRun(plan, suite, combineReporters(console, ...opened.reporters));
  // Handed over (the runner empties the list), so each flow is freed once it has run.
  const ran = await runFlows(suite.loaded.flows, {
    // Flows are dropped once run, and their results shrunk once reported: flat memory.
    release: true,
    compact: true,
    // Console lines and report pieces are made while the next request is in flight.
    overlapReporter: true,
    spill: suite.spill,
    env: inputs.env,
    params: inputs.params,
    runId: opened.runId,
    timeoutMs: plan.timeoutMs,
    maxBodyBytes: plan.maxBodyBytes,
    bodyMemoryBytes: plan.bodyMemoryBytes,
    jobs: plan.jobs,
    ...repeat.runOptions(workerOptionsOf(plan, suite.loaded.bytes)), // --repeat: one thread
    failFast: plan.failFast,
    retries: plan.retries,
    trace: plan.trace,
    cookieJar: plan.cookieJar,
    verbose: plan.verbosity,
    secretVariables: inputs.secrets.variables,
    network: inputs.network,
    signal: interrupts.signal,
    redactor,
    notice: (line) => err(`${line}\n`),
    secrets: [...plan.secretNames],
    // Last: a file is released once every reporter has seen its last flow.
    reporter: combineReporters(repeat.reporter, opened.sources.reporter()),
    rawEvents: true, // each output masks what it writes; the console reads masked flows
    setup: suite.loaded.setup,
    teardown: suite.loaded.teardown,
    coverage: inputs.coverage,
    auth: inputs.auth,
  });
  io.closeHttpClients();
  const result = await repeat.finish(ran);
  return { result, code: await exitOf(plan, inputs, result) };
}

/** Passed, unless a flow failed, a flaky one does not count under --fail-on-flaky, or coverage is short. */
async function exitOf(plan: RunPlan, inputs: Inputs, result: RunResult): Promise<number> {
  const passed = result.status === "passed" && !failedOnFlaky(plan, result) &&
    !(inputs.coverage &&
      (await import("../../lib/report/coverage_text.ts")).coverageFailed(result));
  return passed ? EXIT.passed : EXIT.failed;
}

/** A flaky flow passed; --fail-on-flaky makes the CI job fail for it all the same, saying so. */
function failedOnFlaky(plan: RunPlan, result: RunResult): boolean {
  const flaky = plan.failOnFlaky ? result.totals.flows.flaky ?? 0 : 0;
  if (flaky > 0) out(`Failing the run: ${flaky} flaky (--fail-on-flaky).\n`);
  return flaky > 0;
}

/**
 * Writes what comes after the run (cache entries, CI annotations, the log,
 * the manifest) and returns the exit code: a signal's, else an artifact
 * that failed turns a finished run's code into 4.
 */
async function finish(
  { plan, inputs, suite, interrupts, opened }: {
    plan: RunPlan;
    inputs: Inputs;
    suite: Suite;
    interrupts: Interrupts;
    opened: Opened;
  },
  { result, code }: Ran,
): Promise<number> {
  const { artifacts } = opened;
  // Entries are written while the run goes on; they are complete before the process ends.
  await suite.flowCache?.flush();
  await ciAnnotations(result, opened.problems, {
    enabled: plan.annotations,
    reproduce: opened.reproduce,
    interrupt: interrupts.writes,
  });
  await artifacts.closeLog();
  const exitCode = () =>
    interruptCode(interrupts.signal) ??
      (code === EXIT.usage || artifacts.failures.length === 0 ? code : EXIT.artifacts);
  // From here the exit code is final: the manifest records the code the process exits with.
  interrupts.settle();
  if (plan.artifacts.manifest) {
    await writeManifest(artifacts, {
      path: plan.artifacts.manifest,
      result,
      startedAt: suite.startedAt,
      exitCode: exitCode(),
      started: opened.started(),
      args: plan.args,
      shard: plan.shard,
      flows: opened.sources.manifestFlows([...suite.loaded.files, ...suite.loaded.included]),
      envRead: inputs.envRead,
      env: io.readEnv,
      redact: (text) => redactor.redact(text),
      redactPath: (text) => redactor.redactOutput(text),
    });
  }
  return exitCode();
}
