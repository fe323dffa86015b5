/**
 * The flowrun command line: arguments, console output and exit codes over the
 * library in `lib/`. Subcommands are imported when used, so `--help` and
 * `--version` load almost nothing.
 *
 * Exit codes: 0 every flow passed; 1 at least one flow failed; 2 usage or
 * flow-file error, nothing sent; 3 internal error of the runner; 130/143
 * interrupted by SIGINT/SIGTERM (artifacts still written).
 *
 * @module
 */
import { parseArgs } from "node:util";
import { UsageError } from "./lib/errors.ts";
import { Redactor } from "./lib/redact.ts";
import { inertForCi } from "./lib/report/terminal.ts";
import { suggest } from "./lib/suggest.ts";
import { VERSION } from "./lib/version.ts";

/**
 * Exit codes, as documented in the README and `--help`.
 *
 * @example
 * ```ts
 * import { EXIT } from "./cli.ts";
 * if (EXIT.usage !== 2) throw new Error();
 * ```
 */
export const EXIT = {
  passed: 0,
  failed: 1,
  usage: 2,
  internal: 3,
  SIGINT: 130,
  SIGTERM: 143,
} as const;

const HELP = `flowrun ${VERSION} — run YAML API test flows

Usage:
  flowrun run <path>... [options]   run flow files, or directories of *.yaml/*.yml
  flowrun merge <report.json>... [--report-junit FILE] [--report-json FILE]
                                    merge the JSON reports of several shards into one
  flowrun validate <path>... [--no-env] [--format text|json] [--var NAME=VALUE]...
                                    check flow files as run would, sending nothing (exit 0 or 2)
  flowrun report html <report.json>... -o FILE [--trace-link TEMPLATE]
                                    render saved JSON reports (merged) as one HTML page
  flowrun convert har <file.har> [-o FILE] [--name NAME] [--include-host HOST]...
                      [--exclude-url REGEX]... [--spelling a|b] [--include-html]
                                    turn recorded browser traffic into a flow
                                    (the flow to stdout or FILE, a summary to stderr)
  flowrun --help                    show this help
  flowrun --version                 show the version, Deno version and target

Options for run:
  --report-junit FILE   write a JUnit XML report (written even when flows fail)
  --report-json FILE    write a JSON report (schema/report.schema.json)
  --report-html FILE    write a self-contained HTML report for people
  --log-file FILE       write a structured log, one JSON object per line
  --manifest FILE       write the run manifest (files, checksums, environment names, CI)
  --out-dir DIR         write junit.xml, report.json, report.html, run.log.ndjson and
                        manifest.json into DIR (the options above still win)
  --var NAME=VALUE      set a run parameter; overrides a flow var (repeatable)
  --secret NAME         treat the value of NAME (a --var or environment variable)
                        as a secret: masked in every output (repeatable)
  --run-id ID           the run id behind \${RUN_ID} (default: generated)
  --timeout MS          per-request timeout in milliseconds (default 30000)
  --jobs N              flows run at once (default: the number of CPUs; 1 is sequential)
  --shard I/N           run the I-th of N parts of the flow files, or "auto" to read
                        I and N from CI variables (CI_NODE_INDEX/CI_NODE_TOTAL, …)
  --filter PATTERN      run only flows whose name or path matches (repeatable)
  --fail-fast           start no new flows after the first failure
  --trace               send a W3C traceparent on every request that has none (one trace
                        per flow run, \${TRACE_ID}); trace ids go into every report
  --trace-link TEMPLATE show trace ids as links, e.g. http://jaeger:16686/trace/{trace_id}
  --list                print the flow files the run would execute and exit
  --verbose             also list passing assertions and captured names
  --no-color            no colours (also when NO_COLOR is set or stdout is not a terminal)

Exit codes:
  0    every flow passed
  1    at least one flow failed (assertion, status, capture or request error)
  2    usage or flow-file error; no request was sent
  3    internal error of the runner (please report it)
  130  interrupted by SIGINT (143: SIGTERM); every requested artifact is still written
`;

const encoder = new TextEncoder();

/** Writes all of `text`; `writeSync` may write only part of a large buffer to a pipe. */
function writeAll(stream: { writeSync(p: Uint8Array): number }, text: string): void {
  let bytes = encoder.encode(text);
  while (bytes.length > 0) bytes = bytes.subarray(stream.writeSync(bytes));
}

/**
 * Every secret this process has learned. Everything cli.ts writes, to the
 * console or to a file, passes through it after its final encoding: the one
 * gate between the runner and the outside, so no writer can bypass it.
 */
const redactor = new Redactor();

/** Console text: masked, then made inert for CI runners reading the log. */
const out = (text: string) => writeAll(Deno.stdout, inertForCi(redactor.redact(text)));
const err = (text: string) => writeAll(Deno.stderr, inertForCi(redactor.redact(text)));

/** Writes an artifact file, masked after its final encoding like the console. */
async function save(path: string, text: string): Promise<void> {
  const io = await import("./lib/io.ts");
  await io.writeFileAtomic(path, redactor.redact(text));
}

function useColor(noColor: boolean | undefined): boolean {
  return !noColor && !Deno.env.get("NO_COLOR") && Deno.stdout.isTerminal();
}

type OptionSpec = Record<
  string,
  { type: "string" | "boolean"; multiple?: boolean; short?: string }
>;

const RUN_OPTIONS = {
  "report-junit": { type: "string" },
  "report-json": { type: "string" },
  "report-html": { type: "string" },
  "log-file": { type: "string" },
  manifest: { type: "string" },
  "out-dir": { type: "string" },
  var: { type: "string", multiple: true },
  secret: { type: "string", multiple: true },
  "run-id": { type: "string" },
  timeout: { type: "string" },
  jobs: { type: "string" },
  shard: { type: "string" },
  filter: { type: "string", multiple: true },
  "fail-fast": { type: "boolean" },
  trace: { type: "boolean" },
  "trace-link": { type: "string" },
  list: { type: "boolean" },
  verbose: { type: "boolean" },
  "no-color": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const REPORT_OPTIONS = {
  output: { type: "string", short: "o" },
  "trace-link": { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

const VALIDATE_OPTIONS = {
  "no-env": { type: "boolean" },
  format: { type: "string" },
  var: { type: "string", multiple: true },
  "no-color": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const CONVERT_OPTIONS = {
  output: { type: "string", short: "o" },
  name: { type: "string" },
  "include-host": { type: "string", multiple: true },
  "exclude-url": { type: "string", multiple: true },
  spelling: { type: "string" },
  "include-html": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

const MERGE_OPTIONS = {
  "report-junit": { type: "string" },
  "report-json": { type: "string" },
  "no-color": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

function parse<T extends OptionSpec>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    const message = (error as Error).message;
    const option = /'(-{1,2}[^']+)'/.exec(message)?.[1];
    if (option && /unknown option/i.test(message)) {
      const close = suggest(option.replace(/^-+/, ""), Object.keys(options));
      throw new UsageError(
        "bad-option",
        `Unknown option "${option}".`,
        close ? `Did you mean "--${close}"?` : "See flowrun --help.",
      );
    }
    throw new UsageError("bad-option", `${message.replace(/\.$/, "")}.`, "See flowrun --help.");
  }
}

function parseParams(values: readonly string[] = []): Map<string, string> {
  const params = new Map<string, string>();
  for (const item of values) {
    const eq = item.indexOf("=");
    const name = eq === -1 ? item : item.slice(0, eq);
    if (eq === -1 || !/^[A-Za-z_][A-Za-z0-9_-]*$/.test(name)) {
      throw new UsageError(
        "bad-var",
        `Expected --var NAME=VALUE, got "${eq === -1 ? item : name}".`,
        "For example: --var base_url=http://localhost:8080",
      );
    }
    if (name === "RUN_ID") {
      throw new UsageError("bad-var", "RUN_ID cannot be set with --var.", "Use --run-id.");
    }
    if (name === "TRACE_ID") {
      throw new UsageError(
        "bad-var",
        "TRACE_ID cannot be set with --var: each flow run has its own.",
      );
    }
    params.set(name, item.slice(eq + 1));
  }
  return params;
}

function positiveInteger(
  value: string | undefined,
  option: string,
  what: string,
): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) {
    throw new UsageError(`bad-${option}`, `Expected --${option} to be ${what}, got "${value}".`);
  }
  return n;
}

/** How this program was started, so a failure can print a command that reruns it. */
function selfCommand(): string {
  const main = Deno.mainModule;
  if (main.startsWith("file:") && main.endsWith("/cli.ts")) {
    const cli = new URL(main).pathname;
    const cwd = Deno.cwd().replaceAll("\\", "/");
    const relative = cli.startsWith(cwd + "/") ? cli.slice(cwd.length + 1) : cli;
    return `deno run --allow-net --allow-read --allow-write --allow-env ${relative}`;
  }
  return "flowrun";
}

/** Quotes a word for a POSIX shell when it needs it. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/**
 * Parses a subcommand's arguments. Returns undefined after printing the help
 * for --help; throws `noPaths` when no path was given.
 */
function command<T extends OptionSpec>(args: string[], options: T, noPaths: UsageError) {
  const parsed = parse(args, options);
  if ((parsed.values as { help?: boolean }).help) {
    out(HELP);
    return undefined;
  }
  if (parsed.positionals.length === 0) throw noPaths;
  return parsed;
}

async function run(args: string[]): Promise<number> {
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
  const { values, positionals } = parsed;
  const runId = values["run-id"];
  if (runId !== undefined && !/^[A-Za-z0-9._-]{1,128}$/.test(runId)) {
    throw new UsageError(
      "bad-run-id",
      `Run id "${runId}" may only contain letters, digits, ".", "_" and "-".`,
    );
  }
  const timeoutMs = positiveInteger(values.timeout, "timeout", "a positive number of milliseconds");
  const jobs = positiveInteger(values.jobs, "jobs", "a positive number of flows");
  const params = parseParams(values.var);
  const color = useColor(values["no-color"]);

  // Writers of optional artifacts are imported below, only when asked for.
  const [suite, runner, io, consoleMod, reporter, shardMod, names] = await Promise.all([
    import("./lib/suite.ts"),
    import("./lib/run.ts"),
    import("./lib/io.ts"),
    import("./lib/report/console.ts"),
    import("./lib/report/reporter.ts"),
    import("./lib/shard.ts"),
    import("./lib/secrets/names.ts"),
  ]);

  // Secrets are known before anything is printed: values of secret-looking
  // environment variables as the flows read them (during loading, before any
  // output), --secret names, and --var values whose names look secret. The
  // runner adds what it meets later (auth headers, captured tokens, cookies).
  // Only variables the flows read count: the name rule knowingly over-matches
  // (XDG_SESSION_TYPE), and masking every such value would shred the output.
  const secretNames = new Set(values.secret ?? []);
  for (const name of secretNames) {
    const value = params.get(name) ?? io.readEnv(name);
    if (value === undefined) {
      throw new UsageError(
        "bad-secret",
        `--secret ${name}: no --var or environment variable of that name is set.`,
      );
    }
    redactor.add(value);
  }
  for (const [name, value] of params) if (names.isSecretName(name)) redactor.add(value);
  const secretParam = (name: string) => secretNames.has(name) || names.isSecretName(name);

  let shard: { index: number; total: number; source?: string } | undefined;
  if (values.shard === "auto") {
    const found = shardMod.shardFromEnv(io.readEnv);
    shard = { ...found.shard, source: found.source };
  } else if (values.shard !== undefined) shard = shardMod.parseShard(values.shard);

  const envRead = new Set<string>();
  const env = (name: string) => {
    envRead.add(name);
    const value = io.readEnv(name);
    if (value !== undefined && (names.isSecretName(name) || secretNames.has(name))) {
      redactor.add(value);
    }
    return value;
  };
  const loaded = await suite.loadFlows(positionals, { env, params, shard, filter: values.filter });
  if (values.list) {
    for (const file of loaded.files) out(`${file}\n`);
    return EXIT.passed;
  }
  if (loaded.problems.length > 0) {
    err(consoleMod.formatProblems(loaded.problems, consoleMod.style(color)));
    return EXIT.usage;
  }

  const dir = values["out-dir"]?.replace(/\/+$/, "");
  const outputs = {
    junit: values["report-junit"] ?? (dir && `${dir}/junit.xml`),
    json: values["report-json"] ?? (dir && `${dir}/report.json`),
    html: values["report-html"] ?? (dir && `${dir}/report.html`),
    log: values["log-file"] ?? (dir && `${dir}/run.log.ndjson`),
    manifest: values.manifest ?? (dir && `${dir}/manifest.json`),
  };
  for (const path of Object.values(outputs)) if (path) await io.ensureWritable(path);

  const runIdFinal = runId ?? runner.newRunId();
  const reproduce = (file: string) => {
    const words = [selfCommand(), "run", shellWord(file), "--run-id", shellWord(runIdFinal)];
    for (const [name, value] of params) {
      // A secret stays a reference to the environment, never its value.
      words.push(
        "--var",
        secretParam(name) ? `${name}="$${name.toUpperCase()}"` : shellWord(`${name}=${value}`),
      );
    }
    for (const name of secretNames) words.push("--secret", shellWord(name));
    if (timeoutMs !== undefined) words.push("--timeout", String(timeoutMs));
    if (values.trace) words.push("--trace");
    return words.join(" ");
  };

  const written: { kind: string; path: string }[] = [];
  const reporters = [
    consoleMod.consoleReporter({
      write: out,
      color,
      verbose: values.verbose,
      reproduce,
      traceLink: values["trace-link"],
    }),
  ];
  const report = (
    kind: string,
    path: string | undefined,
    make: (write: (text: string) => Promise<void>) => object,
  ) => {
    if (!path) return;
    reporters.push(make(async (text) => {
      await save(path, text);
      written.push({ kind, path });
    }));
  };
  if (outputs.junit) {
    report("junit", outputs.junit, (await import("./lib/report/junit.ts")).junitReporter);
  }
  if (outputs.json) {
    report("json", outputs.json, (await import("./lib/report/json.ts")).jsonReporter);
  }
  if (outputs.html) {
    const { htmlReporter } = await import("./lib/report/html.ts");
    const htmlOptions = { traceLink: values["trace-link"], shard };
    report("html", outputs.html, (write) => htmlReporter(write, htmlOptions));
  }
  const log = outputs.log ? await io.openStreamWriter(outputs.log) : undefined;
  if (log) {
    const { logReporter } = await import("./lib/report/log.ts");
    reporters.push(logReporter({ sink: (line: string) => log.write(redactor.redact(line)) }));
  }

  // The first signal finishes the run cleanly (artifacts included); a second one exits at once.
  const controller = new AbortController();
  const signals: Deno.Signal[] = Deno.build.os === "windows" ? ["SIGINT"] : ["SIGINT", "SIGTERM"];
  const handlers = signals.map((signal) => {
    const handler = () => {
      if (controller.signal.aborted) Deno.exit(EXIT[signal as "SIGINT" | "SIGTERM"]);
      err(
        `\nflowrun: ${signal} received; finishing the run and writing its artifacts (again to quit now)\n`,
      );
      controller.abort(signal);
    };
    Deno.addSignalListener(signal, handler);
    return [signal, handler] as const;
  });
  const startedAt = new Date().toISOString();
  let result;
  try {
    result = await runner.runFlows(loaded.flows, {
      env,
      params,
      runId: runIdFinal,
      timeoutMs,
      jobs,
      failFast: values["fail-fast"],
      trace: values.trace,
      signal: controller.signal,
      redactor,
      secrets: [...secretNames],
      reporter: reporter.combineReporters(...reporters),
    });
  } finally {
    await log?.close();
    if (log) written.push({ kind: "log", path: outputs.log! });
    for (const [signal, handler] of handlers) Deno.removeSignalListener(signal, handler);
  }
  const code = result.interrupted === "SIGINT" || result.interrupted === "SIGTERM"
    ? EXIT[result.interrupted]
    : result.status === "passed"
    ? EXIT.passed
    : EXIT.failed;
  if (outputs.manifest) {
    const command = ["flowrun", "run", ...args].map((word) => redactor.redact(word));
    const manifestMod = await import("./lib/report/manifest.ts");
    const manifest = await manifestMod.buildManifest({
      run_id: result.run_id,
      runner_version: VERSION,
      deno_version: Deno.version.deno,
      os: Deno.build.os,
      arch: Deno.build.arch,
      started_at: startedAt,
      ended_at: new Date().toISOString(),
      exit_code: code,
      command,
      shard: shard ?? null,
      flows: loaded.files.map((file) => ({ file, bytes: loaded.bytes.get(file)! })),
      env_read: [...envRead],
      env: io.readEnv,
      artifacts: await Promise.all(
        written.map(async (a) => ({ ...a, bytes: await io.readBytes(a.path) })),
      ),
    });
    await save(outputs.manifest, manifestMod.manifestText(manifest));
  }
  return code;
}

/** Reads and checks saved JSON reports, each labelled with its path for error messages. */
async function readReports(paths: readonly string[]) {
  const [mergeMod, io] = await Promise.all([import("./lib/merge.ts"), import("./lib/io.ts")]);
  const inputs = [];
  for (const path of paths) {
    let text: string;
    try {
      text = await io.readText(path);
    } catch (error) {
      throw new UsageError(
        "no-such-path",
        `Cannot read report "${path}": ${(error as Error).message}.`,
      );
    }
    inputs.push({ label: path, result: mergeMod.parseJsonReport(text, path) });
  }
  return inputs;
}

async function merge(args: string[]): Promise<number> {
  const parsed = command(
    args,
    MERGE_OPTIONS,
    new UsageError(
      "no-paths",
      "No reports given.",
      "Usage: flowrun merge <report.json>... --report-json FILE",
    ),
  );
  if (!parsed) return EXIT.passed;
  const { values, positionals } = parsed;
  const [mergeMod, io, consoleMod, junit, json] = await Promise.all([
    import("./lib/merge.ts"),
    import("./lib/io.ts"),
    import("./lib/report/console.ts"),
    import("./lib/report/junit.ts"),
    import("./lib/report/json.ts"),
  ]);
  const outputs = [values["report-junit"], values["report-json"]].filter((p): p is string => !!p);
  for (const path of outputs) await io.ensureWritable(path);
  const inputs = await readReports(positionals);
  const result = mergeMod.mergeResults(inputs);
  if (values["report-junit"]) {
    await save(values["report-junit"], junit.toJUnitXml(result));
  }
  if (values["report-json"]) {
    await save(
      values["report-json"],
      JSON.stringify(json.toJsonReport(result), null, 2) + "\n",
    );
  }
  const s = consoleMod.style(useColor(values["no-color"]));
  out(
    `merged ${inputs.length} report${inputs.length === 1 ? "" : "s"} · ${
      consoleMod.formatSummary(result, s)
    }`,
  );
  return result.status === "passed" ? EXIT.passed : EXIT.failed;
}

async function renderReport(args: string[]): Promise<number> {
  const [format, ...rest] = args;
  if (format !== "html") {
    throw new UsageError(
      "bad-command",
      format === undefined ? "Missing the report format." : `Cannot render a "${format}" report.`,
      "Usage: flowrun report html <report.json>... -o FILE",
    );
  }
  const parsed = command(
    rest,
    REPORT_OPTIONS,
    new UsageError(
      "no-paths",
      "No reports given.",
      "Usage: flowrun report html <report.json>... -o FILE",
    ),
  );
  if (!parsed) return EXIT.passed;
  const { values, positionals } = parsed;
  if (!values.output) throw new UsageError("no-output", "Missing -o FILE for the HTML report.");
  const [mergeMod, io, html] = await Promise.all([
    import("./lib/merge.ts"),
    import("./lib/io.ts"),
    import("./lib/report/html.ts"),
  ]);
  await io.ensureWritable(values.output);
  const inputs = await readReports(positionals);
  const result = inputs.length === 1 ? inputs[0].result : mergeMod.mergeResults(inputs);
  await save(values.output, html.toHtml(result, { traceLink: values["trace-link"] }));
  const count = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  out(
    `wrote ${values.output} (${count(result.totals.flows.total, "flow")} from ${
      count(inputs.length, "report")
    })\n`,
  );
  return EXIT.passed;
}

async function validate(args: string[]): Promise<number> {
  const parsed = command(
    args,
    VALIDATE_OPTIONS,
    new UsageError("no-paths", "No flow files given.", "Usage: flowrun validate <path>..."),
  );
  if (!parsed) return EXIT.passed;
  const { values, positionals } = parsed;
  const format = values.format ?? "text";
  if (format !== "text" && format !== "json") {
    throw new UsageError("bad-format", `Expected --format text or json, got "${format}".`);
  }
  const [suite, io, consoleMod] = await Promise.all([
    import("./lib/suite.ts"),
    import("./lib/io.ts"),
    import("./lib/report/console.ts"),
  ]);
  const { files, problems } = await suite.loadFlows(positionals, {
    env: io.readEnv,
    params: parseParams(values.var),
    checkEnv: !values["no-env"],
  });
  if (format === "json") {
    const list = problems.map(({ file, line, column, code, message, hint }) => ({
      file,
      line,
      column,
      code,
      message,
      hint,
    }));
    out(JSON.stringify(list, null, 2) + "\n");
  } else if (problems.length > 0) {
    const checked = `${files.length} file${files.length === 1 ? "" : "s"} checked`;
    out(
      consoleMod.formatProblems(problems, consoleMod.style(useColor(values["no-color"])), checked),
    );
  } else {
    out(`${files.length} flow file${files.length === 1 ? "" : "s"} checked: no problems.\n`);
  }
  return problems.length > 0 ? EXIT.usage : EXIT.passed;
}

async function convert(args: string[]): Promise<number> {
  const [format, ...rest] = args;
  if (format === "--help" || format === "-h") {
    out(HELP);
    return EXIT.passed;
  }
  if (format !== "har") {
    throw new UsageError(
      "bad-command",
      format === undefined
        ? "Missing the format to convert from."
        : `Cannot convert from "${format}".`,
      "Usage: flowrun convert har <file.har> [-o FILE]",
    );
  }
  const { values, positionals } = parse(rest, CONVERT_OPTIONS);
  if (values.help) {
    out(HELP);
    return EXIT.passed;
  }
  if (positionals.length !== 1) {
    throw new UsageError(
      "no-paths",
      "Expected exactly one HAR file.",
      "Usage: flowrun convert har <file.har> [-o FILE]",
    );
  }
  const spelling = values.spelling ?? "a";
  if (spelling !== "a" && spelling !== "b") {
    throw new UsageError("bad-spelling", `Expected --spelling a or b, got "${spelling}".`);
  }
  const excludeUrls = (values["exclude-url"] ?? []).map((source) => {
    try {
      return new RegExp(source);
    } catch (error) {
      throw new UsageError(
        "bad-regex",
        `Invalid --exclude-url regular expression "${source}": ${(error as Error).message}.`,
      );
    }
  });
  const [io, har] = await Promise.all([import("./lib/io.ts"), import("./lib/convert/har.ts")]);
  const [path] = positionals;
  if (values.output) await io.ensureWritable(values.output);
  let text: string;
  try {
    text = await io.readText(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw new UsageError(
        "no-such-path",
        `No file "${path}".`,
        "Check the path; it is relative to the working directory.",
      );
    }
    throw new UsageError("bad-har", `Cannot read "${path}": ${(error as Error).message}.`);
  }
  const { yaml, summary } = har.convertHar(text, {
    name: values.name,
    includeHosts: values["include-host"],
    excludeUrls,
    spelling,
    includeHtml: values["include-html"],
  });
  if (values.output) await save(values.output, yaml);
  else out(yaml);
  err(har.formatSummary(summary));
  return EXIT.passed;
}

/**
 * Runs the command line and returns the exit code; user errors are printed
 * without a stack trace.
 *
 * @example
 * ```ts ignore
 * import { main } from "./cli.ts";
 * Deno.exit(await main(["run", "examples/flows"]));
 * ```
 */
export async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  try {
    switch (command) {
      case undefined:
      case "help":
      case "--help":
      case "-h":
        out(HELP);
        return command === undefined ? EXIT.usage : EXIT.passed;
      case "--version":
      case "-V":
      case "version":
        out(`flowrun ${VERSION} (deno ${Deno.version.deno}, ${Deno.build.target})\n`);
        return EXIT.passed;
      case "run":
        return await run(rest);
      case "merge":
        return await merge(rest);
      case "convert":
        return await convert(rest);
      case "validate":
        return await validate(rest);
      case "report":
        return await renderReport(rest);
      default: {
        const close = suggest(command, [
          "run",
          "validate",
          "merge",
          "report",
          "convert",
          "help",
          "version",
        ]);
        throw new UsageError(
          "bad-command",
          `Unknown command "${command}".`,
          close ? `Did you mean "flowrun ${close}"?` : "See flowrun --help.",
        );
      }
    }
  } catch (error) {
    if (error instanceof UsageError) {
      err(`error[${error.code}]: ${error.message}\n${error.hint ? `  hint: ${error.hint}\n` : ""}`);
      return EXIT.usage;
    }
    err(
      `flowrun: internal error (exit 3). Please report this with the output below.\n${
        (error as Error)?.stack ?? String(error)
      }\n`,
    );
    return EXIT.internal;
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
