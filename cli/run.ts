/**
 * `flowrun run`: load and check the flows, run them, and write every
 * requested artifact whatever happens — a failure, a flow file with problems
 * (the reports then say so: nothing ran), a signal at any moment (listening
 * starts before loading and ends after the manifest), a console nobody reads
 * any more, or an artifact that cannot be written.
 *
 * @module
 */
import "./run_graph.ts";
import { shellWord } from "../lib/http/curl.ts";
import { MAX_BODY_MEMORY_BYTES } from "../lib/http/body_limits.ts";
import * as io from "../lib/io/mod.ts";
import { loadFlowsDeferred } from "../lib/load/suite.ts";
import { runFlows } from "../lib/run/flows.ts";
import { newRunId } from "../lib/run/options.ts";
import { consoleReporter, formatProblems, style } from "../lib/report/console.ts";
import { combineReporters, type Reporter } from "../lib/report/reporter.ts";
import { parseShard, shardFromEnv } from "../lib/select/shard.ts";
import { isSecretName } from "../lib/secrets/names.ts";
import { maskUserinfo, userinfoSecrets } from "../lib/secrets/userinfo.ts";
import { clientProblem } from "../lib/io/client_check.ts";
import { yamlEngine } from "../lib/load/yaml_engine.ts";
import { UsageError } from "../lib/model/errors.ts";
import type { Problem } from "../lib/model/errors.ts";
import { everyStep, type Flow, isDeferred } from "../lib/model/flow.ts";
import type { RunResult } from "../lib/model/result.ts";
import { MAX_RECORDING_BYTES, MAX_TIMEOUT_MS, PARSED_FLOW_WINDOW } from "../lib/model/limits.ts";
import { VERSION } from "../lib/model/version.ts";
import { byteSize, command, duration, parseParams, positiveInteger } from "./args.ts";
import { type ArtifactPaths, artifactPaths, Artifacts } from "./artifacts.ts";
import { ciAnnotations } from "./ci_annotations.ts";
import { EXIT } from "./exit.ts";
import { FlowSources } from "./flow_sources.ts";
import { err, out, redactor, useColor } from "./output.ts";
import { interruptCode, type Interrupts, listenForInterrupts } from "./signals.ts";

/**
 * The options `flowrun run` accepts, as `parse` in `args.ts` takes them.
 *
 * @example
 * ```ts
 * import { RUN_OPTIONS } from "./run.ts";
 * if (RUN_OPTIONS.jobs.type !== "string" || RUN_OPTIONS.verbose.short !== "v") throw new Error();
 * ```
 */
export const RUN_OPTIONS = {
  "report-junit": { type: "string" },
  "report-codequality": { type: "string" },
  "report-json": { type: "string" },
  "report-html": { type: "string" },
  "log-file": { type: "string" },
  manifest: { type: "string" },
  "out-dir": { type: "string" },
  "cache-dir": { type: "string" },
  var: { type: "string", multiple: true },
  "vars-file": { type: "string", multiple: true },
  "env-file": { type: "string", multiple: true },
  secret: { type: "string", multiple: true },
  "run-id": { type: "string" },
  timeout: { type: "string" },
  "max-body": { type: "string" },
  "max-body-memory": { type: "string" },
  jobs: { type: "string" },
  shard: { type: "string" },
  "shard-timings": { type: "string", multiple: true },
  filter: { type: "string", multiple: true },
  tag: { type: "string" },
  setup: { type: "string", multiple: true },
  teardown: { type: "string", multiple: true },
  "fail-fast": { type: "boolean" },
  trace: { type: "boolean" },
  "cookie-jar": { type: "boolean" },
  cacert: { type: "string", multiple: true },
  cert: { type: "string" },
  key: { type: "string" },
  proxy: { type: "string" },
  "no-proxy": { type: "string" },
  insecure: { type: "boolean" },
  "no-annotations": { type: "boolean" },
  "trace-link": { type: "string" },
  list: { type: "boolean" },
  verbose: { type: "boolean", short: "v", multiple: true },
  console: { type: "string" },
  color: { type: "boolean" },
  "no-color": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** How this program was started, so a failure can print a command that reruns it. */
function selfCommand(): string {
  const main = Deno.mainModule;
  if (main.startsWith("file:") && main.endsWith("/cli.ts")) {
    // The path as the file system names it: a URL's path is percent-encoded (`%20` for a space).
    const cli = decodeURIComponent(new URL(main).pathname);
    const cwd = Deno.cwd().replaceAll("\\", "/");
    const relative = cli.startsWith(cwd + "/") ? cli.slice(cwd.length + 1) : cli;
    return `deno run --allow-net --allow-read --allow-write --allow-env ${shellWord(relative)}`;
  }
  return "flowrun";
}

type Values = NonNullable<ReturnType<typeof command<typeof RUN_OPTIONS>>>["values"];

/**
 * Runs `flowrun run` with its arguments and returns the exit code. cli.ts
 * passes the interrupts it listened for before this module loaded (a
 * signal while the run's 90 files load still ends with every artifact);
 * without them, listening starts here.
 *
 * @example
 * ```ts ignore
 * import { run } from "./run.ts";
 * Deno.exit(await run(["examples/flows", "--out-dir", "out"]));
 * ```
 */
export async function run(args: string[], listening?: Interrupts): Promise<number> {
  const parsed = command(
    args,
    RUN_OPTIONS,
    new UsageError(
      "no-paths",
      "No flow files given.",
      "Usage: flowrun run <path>... (a flow file or a directory)",
    ),
  );
  if (!parsed) return EXIT.passed;
  const interrupts = listening ?? listenForInterrupts();
  const cleanup: (() => void)[] = [];
  try {
    return await runParsed(parsed.values, parsed.positionals, args, interrupts, cleanup);
  } finally {
    for (const done of cleanup) done();
    if (!listening) interrupts.dispose();
  }
}

async function runParsed(
  values: Values,
  positionals: string[],
  args: string[],
  interrupts: Interrupts,
  cleanup: (() => void)[],
): Promise<number> {
  const signal = interrupts.signal;
  const runId = values["run-id"];
  if (runId !== undefined && !/^[A-Za-z0-9._-]{1,128}$/.test(runId)) {
    throw new UsageError(
      "bad-run-id",
      `Run id "${runId}" may only contain letters, digits, ".", "_" and "-".`,
    );
  }
  const timeoutMs = duration(values.timeout, "timeout", MAX_TIMEOUT_MS);
  const maxBodyBytes = byteSize(values["max-body"], "max-body");
  const bodyMemoryBytes = byteSize(
    values["max-body-memory"],
    "max-body-memory",
    MAX_BODY_MEMORY_BYTES,
    "500MiB",
  );
  const jobs = positiveInteger(values.jobs, "jobs", "a positive number of flows", 10_000);
  const cliParams = parseParams(values.var);
  const color = useColor(values);
  const verbosity = values.verbose?.length ?? 0;
  // -v is for reading every exchange: it shows every flow in full unless --console says otherwise.
  const consoleMode = consoleModeOf(values.console ?? (verbosity > 0 ? "detailed" : undefined));

  // Precedence: flow vars < --vars-file (later files win) < --var; the process environment
  // < nothing: a variable set in the environment wins over --env-file, as dotenv tools do.
  const { params, envFile } = await readVarFiles(values, cliParams, io.readText);
  const network = await readNetwork(values, io.readText);

  // Secrets are known before anything is printed: values of secret-looking
  // environment variables as the flows read them (during loading, before any
  // output), --secret names, and --var values whose names look secret. The
  // runner adds what it meets later. Only variables the flows read count: the
  // name rule knowingly over-matches (XDG_SESSION_TYPE), and masking every
  // such value would shred the output.
  const secretNames = new Set(values.secret ?? []);
  // Secret value → the variable that holds it, so a printed curl command can say "$NAME".
  const secretVariables = new Map<string, string>();
  for (const name of secretNames) {
    const value = params.get(name) ?? io.readEnv(name) ?? envFile.get(name);
    if (value === undefined) {
      throw new UsageError(
        "bad-secret",
        `--secret ${name}: no --var or environment variable of that name is set.`,
      );
    }
    redactor.add(value);
    secretVariables.set(value, name);
  }
  const isSecret = (name: string) => secretNames.has(name) || isSecretName(name);
  for (const [name, value] of params) {
    if (!isSecret(name)) continue;
    redactor.add(value);
    secretVariables.set(value, name);
  }

  let shard: { index: number; total: number; source?: string } | undefined;
  if (values.shard === "auto") {
    const found = shardFromEnv(io.readEnv);
    shard = { ...found.shard, source: found.source };
  } else if (values.shard !== undefined) shard = parseShard(values.shard);
  const shardTimes = await readShardTimings(
    values,
    shard !== undefined,
    (path) => io.readText(path, { limit: MAX_RECORDING_BYTES }),
  );

  const paths = artifactPaths(values);
  for (const path of Object.values(paths)) if (path) await io.ensureWritable(path);

  const envRead = new Set<string>();
  // Read once per name: every request of every flow reads ${ENV.BASE_URL} again, and each
  // read was a runtime call, a secret-name test and a registration.
  const envSeen = new Map<string, string | undefined>();
  const env = (name: string) => {
    if (envSeen.has(name)) return envSeen.get(name);
    envRead.add(name);
    const value = io.readEnv(name) ?? envFile.get(name);
    if (value !== undefined && isSecret(name)) {
      redactor.add(value);
      if (!secretVariables.has(value)) secretVariables.set(value, name);
    }
    envSeen.set(name, value);
    return value;
  };
  const startedAt = new Date().toISOString();
  const flowCache = values["cache-dir"] ? io.flowCacheIn(values["cache-dir"]) : undefined;
  // Past the window, checked flows wait for their turn on disk, as bytes and as checked JSON
  // (and so do the kept steps of failed flows): flat memory at any suite size.
  const spill = io.byteSpill();
  cleanup.push(spill.close);
  const loaded = await loadFlowsDeferred(positionals, {
    env,
    params,
    shard,
    shardTimes,
    filter: values.filter,
    tags: values.tag,
    setupFiles: values.setup ?? [],
    teardownFiles: values.teardown,
    ...(flowCache ? { cache: flowCache } : {}),
    spill,
    signal,
  }, PARSED_FLOW_WINDOW);
  for (const w of loaded.warnings) {
    // A --vars-file is shared by runs that read different parts of it: only a --var is warned of.
    if (w.code === "unused-var" && !cliParams.has(w.name ?? "")) continue;
    err(`warning[${w.code}]: ${w.message}\n  hint: ${w.hint}\n`);
  }
  // (A deferred flow never sets insecure: such flows stay parsed.)
  warnInsecure(network?.insecure === true, [
    ...loaded.setup,
    ...loaded.flows.filter((f): f is Flow => !isDeferred(f)),
    ...loaded.teardown,
  ]);
  if (values.list) {
    for (const file of loaded.files) out(`${file}\n`);
    await flowCache?.flush();
    return EXIT.passed;
  }
  await refuseFlowFilesAsOutputs(paths, [...loaded.files, ...loaded.included]);
  const runIdFinal = runId ?? newRunId();
  const artifacts = await Artifacts.open(paths, interrupts.writes);
  const reproduce = reproducer(values, cliParams, secretNames, isSecret, runIdFinal, timeoutMs);
  const reporters = await artifacts.reporters({
    traceLink: values["trace-link"],
    shard,
    reproduce,
    // Only the HTML report shows where the run happened.
    provenance: paths.html ? await provenance(io.readEnv, envRead) : undefined,
  });
  const sources = new FlowSources(
    loaded.bytes,
    [...loaded.setup, ...loaded.flows, ...loaded.teardown],
    paths.manifest ? (await import("../lib/report/manifest.ts")).sha256Hex : undefined,
  );

  const problems = loaded.problems.length > 0
    ? loaded.problems
    : loaded.files.length === 0 && (values.filter !== undefined || values.tag !== undefined)
    ? nothingSelected(
      values.filter ?? [],
      values.tag,
      (await io.discoverFlowEntries(positionals)).length,
    )
    : [];
  let result: RunResult;
  let code: number;
  if (problems.length > 0) {
    err(
      problems[0].file === FILTER
        ? `error[${problems[0].code}]: ${problems[0].message}\n  hint: ${problems[0].hint}\n`
        : formatProblems(problems, style(color)),
    );
    const { invalidRunResult } = await import("../lib/run/invalid_run.ts");
    result = invalidRunResult({
      run_id: runIdFinal,
      started_at: startedAt,
      problems,
      files: loaded.files,
    });
    await replay(combineReporters(...reporters), result);
    code = EXIT.usage;
  } else {
    const console = consoleReporter({
      write: out,
      color,
      mode: consoleMode,
      progress: Deno.stdout.isTerminal() && !Deno.env.get("CI"),
      verbose: verbosity,
      sourceLine: sources.sourceLine,
      reproduce,
      traceLink: values["trace-link"],
    });
    // Handed over (the runner empties the list), so each flow is freed once it has run.
    result = await runFlows(loaded.flows, {
      // Flows are dropped once run, and their results shrunk once reported: flat memory.
      release: true,
      compact: true,
      // Console lines and report pieces are made while the next request is in flight.
      overlapReporter: true,
      spill,
      env,
      params,
      runId: runIdFinal,
      timeoutMs,
      maxBodyBytes,
      bodyMemoryBytes,
      jobs,
      failFast: values["fail-fast"],
      trace: values.trace,
      cookieJar: values["cookie-jar"],
      verbose: verbosity,
      secretVariables,
      network,
      signal,
      redactor,
      secrets: [...secretNames],
      // Last: a file is released once every reporter has seen its last flow.
      reporter: combineReporters(console, ...reporters, sources.reporter()),
      setup: loaded.setup,
      teardown: loaded.teardown,
    });
    code = result.status === "passed" ? EXIT.passed : EXIT.failed;
    io.closeHttpClients();
  }
  // Entries are written while the run goes on; they are complete before the process ends.
  await flowCache?.flush();
  await ciAnnotations(result, problems, {
    enabled: !values["no-annotations"],
    reproduce,
    interrupt: interrupts.writes,
  });
  await artifacts.closeLog();
  const exitCode = () =>
    interruptCode(signal) ??
      (code === EXIT.usage || artifacts.failures.length === 0 ? code : EXIT.artifacts);
  // From here the exit code is final: the manifest records the code the process exits with.
  interrupts.settle();
  if (paths.manifest) {
    const manifestMod = await import("../lib/report/manifest.ts");
    const manifest = await manifestMod.buildManifest({
      run_id: result.run_id,
      runner_version: VERSION,
      deno_version: Deno.version.deno,
      os: Deno.build.os,
      arch: Deno.build.arch,
      started_at: startedAt,
      ended_at: new Date().toISOString(),
      exit_code: exitCode(),
      // A URL's password is masked whole whatever its length (the redactor skips short ones).
      command: ["flowrun", "run", ...args].map((word) => redactor.redact(maskUserinfo(word))),
      shard: shard ?? null,
      flows: sources.manifestFlows([...loaded.files, ...loaded.included]),
      env_read: [...envRead],
      env: io.readEnv,
      // Hashes of the bytes this run wrote, never of files read back.
      artifacts: artifacts.written,
    });
    await artifacts.write("manifest", paths.manifest, manifestMod.manifestText(manifest));
  }
  return exitCode();
}

/**
 * `--cacert`, `--cert`/`--key`, `--proxy`, `--no-proxy` and `--insecure`, with the PEM
 * files read; a file that cannot be read or a bad proxy URL is a usage error.
 */
async function readNetwork(
  values: Values,
  read: (path: string) => Promise<string>,
): Promise<import("../lib/run/context.ts").Network | undefined> {
  const pem = async (option: string, path: string) => {
    let text: string;
    try {
      text = await read(path);
    } catch (error) {
      throw new UsageError(
        fileCode(error) ?? `bad-${option}`,
        `Cannot read --${option} "${path}": ${(error as Error).message}.`,
        "Give the path of a PEM file.",
      );
    }
    if (!text.includes("-----BEGIN ")) {
      throw new UsageError(
        `bad-${option}`,
        `--${option} "${path}" is not PEM text.`,
        "Give a PEM file (-----BEGIN CERTIFICATE----- or a PEM key).",
      );
    }
    return text;
  };
  if ((values.cert === undefined) !== (values.key === undefined)) {
    throw new UsageError(
      "bad-cert",
      `--${values.cert === undefined ? "key" : "cert"} needs --${
        values.cert === undefined ? "cert" : "key"
      }.`,
      "Give the client certificate and its key together: --cert client.pem --key client.key.",
    );
  }
  const proxy = values.proxy;
  // The proxy's password, however written, is a secret before anything is printed.
  for (const form of userinfoSecrets(proxy ?? "", { proxy: true })) redactor.add(form);
  if (proxy !== undefined && !/^(https?|socks5h?):\/\/[^/]/.test(proxy)) {
    throw new UsageError(
      "bad-proxy",
      `--proxy "${maskUserinfo(proxy, { proxy: true })}" is not a proxy URL.`,
      "Write http://host:port, https://host:port or socks5://host:port.",
    );
  }
  const caCerts = await Promise.all((values.cacert ?? []).map((p) => pem("cacert", p)));
  const clientCert = values.cert && values.key
    ? { cert: await pem("cert", values.cert), key: await pem("key", values.key) }
    : undefined;
  const noProxy = values["no-proxy"]?.split(",").map((h) => h.trim()).filter(Boolean);
  const insecure = values.insecure === true;
  // The runtime builds its client at the first request: whatever it would refuse there is
  // refused here, before anything is sent, with the option at fault named.
  const problem = clientProblem({ caCerts, ...clientCert, proxy, insecure }, {
    ca: (i) => `--cacert "${values.cacert![i]}"`,
    cert: `--cert "${values.cert}"`,
    key: `--key "${values.key}"`,
    proxy: `--proxy "${maskUserinfo(proxy ?? "", { proxy: true })}"`,
  });
  if (problem) {
    const code = { ca: "bad-cacert", cert: "bad-cert", key: "bad-key", proxy: "bad-proxy" };
    throw new UsageError(code[problem.part], problem.message, problem.hint);
  }
  if (caCerts.length === 0 && !clientCert && !proxy && !noProxy && !insecure) return undefined;
  return {
    ...(insecure ? { insecure } : {}),
    ...(caCerts.length > 0 ? { caCerts } : {}),
    ...(clientCert ? { clientCert } : {}),
    ...(proxy ? { proxy } : {}),
    ...(noProxy ? { noProxy } : {}),
  };
}

/**
 * Turning certificate checks off is sometimes needed (a dev server's
 * self-signed certificate) and always dangerous: say so on every run, naming
 * the flows that do it, so it is never on by accident unnoticed.
 */
function warnInsecure(all: boolean, flows: readonly Flow[]): void {
  const files = new Set<string>();
  for (const flow of flows) {
    if (
      flow.options?.insecure || [...everyStep([flow])].some(({ step }) => step.options?.insecure)
    ) {
      files.add(flow.file);
    }
  }
  if (!all && files.size === 0) return;
  const who = all
    ? "--insecure is on"
    : `${[...files].join(", ")} set${files.size === 1 ? "s" : ""} insecure: true`;
  err(
    `warning[insecure]: ${who}: TLS certificates are not checked, so anyone on the network path ` +
      `can read and change these requests and their secrets.\n` +
      `  hint: Trust the server's CA instead with --cacert FILE (or ca_cert in the flow's options).\n`,
  );
}

/**
 * Where the run happened, for the HTML report: the CI's provenance, the
 * platform, the versions, and the names (never the values) of the
 * environment variables the flows read, as the manifest records them.
 */
async function provenance(
  env: (name: string) => string | undefined,
  envRead: ReadonlySet<string>,
): Promise<Record<string, string>> {
  const { ciProvenance } = await import("../lib/report/ci_provenance.ts");
  const ci = ciProvenance(env);
  const out: Record<string, string> = {
    platform: `${Deno.build.os} ${Deno.build.arch}`,
    deno: Deno.version.deno,
  };
  if (ci) {
    for (const [key, value] of Object.entries(ci)) if (value) out[key] = String(value);
  }
  if (envRead.size > 0) out.environment = [...envRead].sort().join(", ");
  return out;
}

/**
 * The code of an input file that is not a regular file or is too large
 * (`not-a-regular-file`, `input-too-large`), whatever option named it.
 */
function fileCode(error: unknown): string | undefined {
  return error instanceof io.InputFileError && error.code !== "file-read" ? error.code : undefined;
}

/**
 * `--shard-timings`: the durations per flow file in earlier JSON reports,
 * to balance `--shard` by time. A report that cannot be read or parsed is a
 * usage error; one without flows adds nothing.
 */
async function readShardTimings(
  values: Values,
  sharded: boolean,
  read: (path: string) => Promise<string>,
): Promise<Map<string, number> | undefined> {
  const files = values["shard-timings"];
  if (!files || files.length === 0) return undefined;
  if (!sharded) {
    throw new UsageError(
      "bad-shard-timings",
      "--shard-timings balances a sharded run, but there is no --shard.",
      "Add --shard I/N (or --shard auto), or leave --shard-timings out.",
    );
  }
  const reports: unknown[] = [];
  for (const file of files) {
    try {
      reports.push(JSON.parse(await read(file)));
    } catch (error) {
      throw new UsageError(
        fileCode(error) ?? "bad-shard-timings",
        `Cannot use --shard-timings "${file}": ${(error as Error).message.replace(/\.$/, "")}.`,
        "Give the JSON report (--report-json) of an earlier run of the same flows.",
      );
    }
  }
  const { durationsFromReports } = await import("../lib/select/shard_time.ts");
  return durationsFromReports(reports);
}

/**
 * `--console`: as asked, else detailed on a terminal and compact in logs
 * (CI), where a long run's passing flows are one line each.
 */
function consoleModeOf(value: string | undefined): "detailed" | "compact" | "failures" {
  if (value === undefined) return Deno.stdout.isTerminal() ? "detailed" : "compact";
  if (value === "detailed" || value === "compact" || value === "failures") return value;
  throw new UsageError(
    "bad-console",
    `--console "${value}" is not a console mode.`,
    "Write --console detailed (every step), compact (a line per flow) or failures (failing flows only).",
  );
}

/** The real path of a file, or undefined when it does not exist (yet). */
async function realPath(path: string): Promise<string | undefined> {
  try {
    return await Deno.realPath(path);
  } catch {
    return undefined;
  }
}

/**
 * An artifact written over a flow file would destroy the test it reports on:
 * refuse it before anything is sent, also through a symlink or another
 * spelling of the same path.
 */
async function refuseFlowFilesAsOutputs(
  paths: ArtifactPaths,
  files: readonly string[],
): Promise<void> {
  const outputs = new Map<string, string>();
  for (const path of Object.values(paths)) {
    const real = path && await realPath(path);
    if (real) outputs.set(real, path!);
  }
  if (outputs.size === 0) return;
  for (const file of files) {
    const real = await realPath(file);
    const output = real && outputs.get(real);
    if (output) {
      throw new UsageError(
        "unwritable",
        `Cannot write a report to "${output}": it is the flow file "${file}".`,
        "Choose a report path outside the flow files; nothing was sent.",
      );
    }
  }
}

/**
 * The run parameters (`--vars-file`, then `--var`, later ones winning) and
 * the variables of `--env-file` (later files winning).
 */
async function readVarFiles(
  values: Values,
  cliParams: ReadonlyMap<string, string>,
  readText: (path: string) => Promise<string>,
): Promise<{ params: Map<string, string>; envFile: Map<string, string> }> {
  if (!values["vars-file"]?.length && !values["env-file"]?.length) {
    // Most runs have no such file: the YAML parser they would need is not loaded at all.
    return { params: new Map(cliParams), envFile: new Map() };
  }
  const { parseEnvFile, parseVarsFile } = await import("../lib/load/var_files.ts");
  if (values["vars-file"]?.length) await yamlEngine.load();
  const read = async (path: string, option: string) => {
    try {
      return await readText(path);
    } catch (error) {
      throw new UsageError(
        fileCode(error) ?? "file-read",
        `${option} ${path}: ${(error as Error).message.replace(/\.$/, "")}.`,
        "Check the path: it is relative to the current directory.",
      );
    }
  };
  const params = new Map<string, string>();
  for (const file of values["vars-file"] ?? []) {
    for (const [k, v] of parseVarsFile(await read(file, "--vars-file"), file)) params.set(k, v);
  }
  for (const [k, v] of cliParams) params.set(k, v);
  const envFile = new Map<string, string>();
  for (const file of values["env-file"] ?? []) {
    for (const [k, v] of parseEnvFile(await read(file, "--env-file"), file)) envFile.set(k, v);
  }
  return { params, envFile };
}

/** The `file` of the problem that says a filter selected nothing. */
const FILTER = "--filter";

/** A filter that selects no flow is an error: a typo must not turn a red suite green. */
function nothingSelected(
  filter: readonly string[],
  tags: string | undefined,
  checked: number,
): Problem[] {
  const selectors = [
    ...(filter.length > 0 ? [`--filter ${filter.map((f) => `"${f}"`).join(", ")}`] : []),
    ...(tags !== undefined ? [`--tag "${tags}"`] : []),
  ].join(" and ");
  return [{
    file: FILTER,
    line: 0,
    column: 0,
    code: "no-match",
    message: `${selectors} matched none of the ${checked} flow file${
      checked === 1 ? "" : "s"
    }, so nothing would run.`,
    hint: filter.length > 0
      ? "Check the pattern: without *, ? or [...] it matches part of a flow's name or path; with them, the whole name, path or file name. flowrun run <path> --list shows what a run selects."
      : "Check the tag names against the flows' tags: lists; flowrun run <path> --list shows what a run selects.",
  }];
}

/** Drives reporters over a result that was not produced by running (nothing ran). */
async function replay(
  reporter: Reporter,
  result: RunResult,
): Promise<void> {
  await reporter.onRunStart?.({
    run_id: result.run_id,
    runner_version: result.runner_version,
    started_at: result.started_at,
    files: result.flows.map((f) => f.file),
  });
  for (const flow of result.flows) await reporter.onFlowEnd?.(flow);
  await reporter.onRunEnd?.(result);
}

/** The command that reruns one flow with the same run id and parameters; secrets stay references. */
function reproducer(
  values: Values,
  params: ReadonlyMap<string, string>,
  secretNames: ReadonlySet<string>,
  isSecret: (name: string) => boolean,
  runId: string,
  timeoutMs: number | undefined,
): (file: string) => string {
  return (file) => {
    // A name that reads as an option is given as a path (`./-x.yaml`), which names the same file.
    const path = file.startsWith("-") ? `./${file}` : file;
    const words = [selfCommand(), "run", shellWord(path), "--run-id", shellWord(runId)];
    for (const [name, value] of params) {
      // A --var name is [A-Za-z_][A-Za-z0-9_-]*: a plain word; the variable's name must expand.
      const variable = name.toUpperCase().replaceAll("-", "_");
      words.push(
        "--var",
        isSecret(name) ? `${name}="$${variable}"` : shellWord(`${name}=${value}`),
      );
    }
    for (const file of values["vars-file"] ?? []) words.push("--vars-file", shellWord(file));
    for (const file of values["env-file"] ?? []) words.push("--env-file", shellWord(file));
    for (const name of secretNames) words.push("--secret", shellWord(name));
    if (timeoutMs !== undefined) words.push("--timeout", String(timeoutMs));
    if (values["max-body"] !== undefined) words.push("--max-body", shellWord(values["max-body"]));
    if (values["max-body-memory"] !== undefined) {
      words.push("--max-body-memory", shellWord(values["max-body-memory"]));
    }
    if (values.trace) words.push("--trace");
    if (values["cookie-jar"]) words.push("--cookie-jar");
    for (const file of values.cacert ?? []) words.push("--cacert", shellWord(file));
    if (values.cert && values.key) {
      words.push("--cert", shellWord(values.cert), "--key", shellWord(values.key));
    }
    if (values.proxy) {
      words.push(
        "--proxy",
        shellWord(redactor.redact(maskUserinfo(values.proxy, { proxy: true }))),
      );
    }
    if (values["no-proxy"]) words.push("--no-proxy", shellWord(values["no-proxy"]));
    if (values.insecure) words.push("--insecure");
    return words.join(" ");
  };
}
