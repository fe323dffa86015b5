/**
 * `flowrun run`'s arguments as a {@linkcode RunPlan}: every option parsed,
 * bounded and checked before any file is read or anything is sent. Built
 * from argv and a {@linkcode RunHost} (the environment, whether standard
 * output is a terminal, the secrets learned), so it is tested without a
 * process; cli/run/mod.ts executes it.
 *
 * @module
 */
import { MAX_BODY_MEMORY_BYTES } from "../../lib/http/body_limits.ts";
import { UsageError } from "../../lib/model/errors.ts";
import { MAX_TIMEOUT_MS } from "../../lib/model/limits.ts";
import { maskUserinfo, userinfoSecrets } from "../../lib/secrets/userinfo.ts";
import { parse, type ParsedValues } from "../args.ts";
import { byteSize, coverageMin, duration, positiveInteger } from "../option_values.ts";
import { type ArtifactPaths, artifactPaths } from "./artifacts.ts";
import { LOAD_OPTIONS, type LoadPlan, loadPlan } from "./load_step.ts";
import { useColor } from "../output.ts";
import { RERUN_OPTIONS, rerunOf, type RerunPlan } from "./rerun_options.ts";
import { REPEAT_OPTIONS, repeatOf } from "./repeat_option.ts";

/**
 * The options `flowrun run` accepts, as `parse` in `args.ts` takes them.
 *
 * @example
 * ```ts
 * import { RUN_OPTIONS } from "./options.ts";
 * if (RUN_OPTIONS.jobs.type !== "string" || RUN_OPTIONS.verbose.short !== "v") throw new Error();
 * ```
 */
export const RUN_OPTIONS = {
  "report-junit": { type: "string" },
  "report-codequality": { type: "string" },
  "report-json": { type: "string" },
  "report-html": { type: "string" },
  "report-har": { type: "string" },
  "log-file": { type: "string" },
  manifest: { type: "string" },
  "out-dir": { type: "string" },
  "cache-dir": { type: "string" },
  // What is loaded: validate takes these too (load_step.ts).
  ...LOAD_OPTIONS,
  "run-id": { type: "string" },
  timeout: { type: "string" },
  "max-body": { type: "string" },
  "max-body-memory": { type: "string" },
  jobs: { type: "string" },
  workers: { type: "string" },
  ...REPEAT_OPTIONS,
  "fail-fast": { type: "boolean" },
  ...RERUN_OPTIONS,
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
  openapi: { type: "string", multiple: true },
  coverage: { type: "boolean" },
  "coverage-min": { type: "string" },
  list: { type: "boolean" },
  verbose: { type: "boolean", short: "v", multiple: true },
  console: { type: "string" },
  color: { type: "boolean" },
  "no-color": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** The parsed options of `flowrun run`. */
type Values = ParsedValues<typeof RUN_OPTIONS>;

/**
 * What the plan may ask of the process: a real run passes the environment,
 * standard output and the CLI's redactor; a test passes its own.
 *
 * @example
 * ```ts
 * import type { RunHost } from "./options.ts";
 * const learned: string[] = [];
 * const host: RunHost = { env: () => undefined, isTerminal: () => false, secret: (s) => learned.push(s) };
 * host.secret("hunter2");
 * if (learned[0] !== "hunter2") throw new Error();
 * ```
 */
export interface RunHost {
  /** An environment variable, or undefined when it is not set. */
  env(name: string): string | undefined;
  /** Whether standard output is a terminal. */
  isTerminal(): boolean;
  /** Learns a secret before anything is printed (a proxy's password). */
  secret(value: string): void;
}

/**
 * How the console shows a run (`--console`).
 *
 * @example
 * ```ts
 * import type { ConsoleMode } from "./options.ts";
 * const mode: ConsoleMode = "failures";
 * if (mode !== "failures") throw new Error();
 * ```
 */
export type ConsoleMode = "detailed" | "compact" | "failures";

/**
 * The TLS and proxy options as given: the files are read, and what the
 * runtime would refuse is refused, by cli/run/inputs.ts.
 *
 * @example
 * ```ts
 * import { runPlan } from "./options.ts";
 * const host = { env: () => undefined, isTerminal: () => false, secret: () => {} };
 * const { network } = runPlan(["a.yaml", "--cacert", "ca.pem", "--insecure"], host)!;
 * if (network.caFiles[0] !== "ca.pem" || !network.insecure) throw new Error();
 * ```
 */
export interface NetworkPlan {
  /** `--cacert` files, in order. */
  caFiles: string[];
  /** `--cert`: given with `--key` or not at all. */
  cert?: string;
  /** `--key`. */
  key?: string;
  /** `--proxy`, a proxy URL (its password is a secret). */
  proxy?: string;
  /** `--no-proxy` as written (a reproduced command repeats it). */
  noProxy?: string;
  /** `--insecure`. */
  insecure: boolean;
}

/**
 * Everything `flowrun run` was asked to do, checked.
 *
 * @example
 * ```ts
 * import { runPlan } from "./options.ts";
 * const host = { env: () => undefined, isTerminal: () => false, secret: () => {} };
 * const plan = runPlan(["flows/", "--jobs", "4"], host);
 * if (plan?.jobs !== 4 || plan.paths[0] !== "flows/") throw new Error();
 * ```
 */
export interface RunPlan extends LoadPlan, RerunPlan {
  /** The arguments as given: the manifest records them. */
  args: readonly string[];
  /** `--run-id`, checked; a new id is made when absent. */
  runId?: string;
  /** `--timeout` in milliseconds. */
  timeoutMs?: number;
  /** `--max-body` as written. */
  maxBody?: string;
  /** `--max-body` in bytes. */
  maxBodyBytes?: number;
  /** `--max-body-memory` as written. */
  maxBodyMemory?: string;
  /** `--max-body-memory` in bytes. */
  bodyMemoryBytes?: number;
  /** `--jobs` (or `--concurrency`, the same option). */
  jobs?: number;
  /** `--repeat`: how many times each selected flow runs (1: once, as without it). */
  repeat: number;
  /** `--workers`: threads that run flows, the main thread one of them; `"auto"` (default): the CPUs. */
  workers: number | "auto";
  /** Whether the console uses colours. */
  color: boolean;
  /** How many times `-v` was given. */
  verbosity: number;
  /** How the console shows the run. */
  consoleMode: ConsoleMode;
  /** Whether the console shows a progress line (a terminal outside CI). */
  progress: boolean;
  /** TLS and proxy options. */
  network: NetworkPlan;
  /** Where each artifact is written. */
  artifacts: ArtifactPaths;
  /** `--cache-dir`. */
  cacheDir?: string;
  /** `--list`: print the selected files, run nothing. */
  list: boolean;
  /** `--fail-fast`. */
  failFast?: boolean;
  /** `--trace`. */
  trace?: boolean;
  /** `--cookie-jar`. */
  cookieJar?: boolean;
  /** Whether CI annotations are written (not `--no-annotations`). */
  annotations: boolean;
  /** `--trace-link`. */
  traceLink?: string;
  /** `--openapi`, `--coverage`, `--coverage-min`: the run reports its OpenAPI coverage. */
  coverage?: CoveragePlan;
}

/**
 * What OpenAPI coverage a run reports: of the `--openapi` documents and
 * those of the `openapi:` checks that run.
 *
 * @example
 * ```ts
 * import { runPlan } from "./options.ts";
 * const host = { env: () => undefined, isTerminal: () => false, secret: () => {} };
 * const plan = runPlan(["flows/", "--openapi", "api.yaml", "--coverage-min", "80"], host);
 * if (plan?.coverage?.documents[0] !== "api.yaml" || plan.coverage.min !== 80) throw new Error();
 * if (runPlan(["flows/"], host)?.coverage !== undefined) throw new Error();
 * ```
 */
export interface CoveragePlan {
  /** `--openapi` files, in order. */
  documents: string[];
  /** `--coverage-min`: the least percent of operations exercised. */
  min?: number;
}

/** `--openapi`, `--coverage` and `--coverage-min`; any of them asks for coverage. */
function coverageOf(values: Values): CoveragePlan | undefined {
  const documents = values.openapi ?? [];
  const given = values["coverage-min"];
  if (documents.length === 0 && !values.coverage && given === undefined) return undefined;
  if (given === undefined) return { documents };
  return { documents, min: coverageMin(given) };
}

/**
 * The limits of one run: `--timeout`, `--max-body`, `--max-body-memory`,
 * `--jobs` (and `--repeat`, `--concurrency`), `--workers`.
 */
function limitsOf(values: Values) {
  return {
    timeoutMs: duration(values.timeout, "timeout", MAX_TIMEOUT_MS),
    maxBody: values["max-body"],
    maxBodyBytes: byteSize(values["max-body"], "max-body"),
    maxBodyMemory: values["max-body-memory"],
    bodyMemoryBytes: byteSize(
      values["max-body-memory"],
      "max-body-memory",
      MAX_BODY_MEMORY_BYTES,
      "500MiB",
    ),
    ...repeatOf(values),
    workers: values.workers === "auto" || values.workers === undefined
      ? "auto" as const
      : positiveInteger(values.workers, "workers", 'a positive number of threads or "auto"', 256)!,
  };
}

/** `--run-id`: a word that is safe in a file name and a shell. */
function runIdOf(runId: string | undefined): string | undefined {
  if (runId !== undefined && !/^[A-Za-z0-9._-]{1,128}$/.test(runId)) {
    throw new UsageError(
      "bad-run-id",
      `Run id "${runId}" may only contain letters, digits, ".", "_" and "-".`,
    );
  }
  return runId;
}

/**
 * `--console`: as asked, else detailed on a terminal and compact in logs
 * (CI), where a long run's passing flows are one line each.
 */
function consoleModeOf(value: string | undefined, host: RunHost): ConsoleMode {
  if (value === undefined) return host.isTerminal() ? "detailed" : "compact";
  if (value === "detailed" || value === "compact" || value === "failures") return value;
  throw new UsageError(
    "bad-console",
    `--console "${value}" is not a console mode.`,
    "Write --console detailed (every step), compact (a line per flow) or failures (failing flows only).",
  );
}

/** The console: colours, verbosity, mode and progress line. */
function consoleOf(values: Values, host: RunHost) {
  const color = useColor(values, host);
  const verbosity = values.verbose?.length ?? 0;
  // -v is for reading every exchange: it shows every flow in full unless --console says otherwise.
  const consoleMode = consoleModeOf(
    values.console ?? (verbosity > 0 ? "detailed" : undefined),
    host,
  );
  return { color, verbosity, consoleMode, progress: host.isTerminal() && !host.env("CI") };
}

/**
 * `--cacert`, `--cert`/`--key`, `--proxy`, `--no-proxy` and `--insecure`:
 * the certificate comes with its key, and the proxy is a proxy URL whose
 * password, however written, is a secret before anything is printed.
 */
function networkOf(values: Values, host: RunHost): NetworkPlan {
  if ((values.cert === undefined) !== (values.key === undefined)) {
    const [given, missing] = values.cert === undefined ? ["key", "cert"] : ["cert", "key"];
    throw new UsageError(
      "bad-cert",
      `--${given} needs --${missing}.`,
      "Give the client certificate and its key together: --cert client.pem --key client.key.",
    );
  }
  const proxy = values.proxy;
  for (const form of userinfoSecrets(proxy ?? "", { proxy: true })) host.secret(form);
  if (proxy !== undefined && !/^(https?|socks5h?):\/\/[^/]/.test(proxy)) {
    throw new UsageError(
      "bad-proxy",
      `--proxy "${maskUserinfo(proxy, { proxy: true })}" is not a proxy URL.`,
      "Write http://host:port, https://host:port or socks5://host:port.",
    );
  }
  return {
    caFiles: values.cacert ?? [],
    cert: values.cert,
    key: values.key,
    proxy,
    noProxy: values["no-proxy"],
    insecure: values.insecure === true,
  };
}

/** How to run it: the options that need no checking. */
function selectionOf(values: Values) {
  return {
    cacheDir: values["cache-dir"],
    list: values.list === true,
    failFast: values["fail-fast"],
    trace: values.trace,
    cookieJar: values["cookie-jar"],
    annotations: !values["no-annotations"],
    traceLink: values["trace-link"],
  };
}

/**
 * Builds the plan of `flowrun run <args>`, or undefined for `--help`.
 * Options are checked in a fixed order and the first one at fault is a
 * {@linkcode UsageError}; no file is read and nothing is printed.
 *
 * @example
 * ```ts
 * import { runPlan } from "./options.ts";
 * const host = { env: () => undefined, isTerminal: () => false, secret: () => {} };
 * const plan = runPlan(["flows/", "--var", "a=1", "--out-dir", "out/"], host);
 * if (plan?.params.get("a") !== "1" || plan.artifacts.junit !== "out/junit.xml") throw new Error();
 * if (runPlan(["--help"], host) !== undefined) throw new Error();
 * ```
 */
export function runPlan(args: string[], host: RunHost): RunPlan | undefined {
  const { values, positionals } = parse(args, RUN_OPTIONS);
  if (values.help) return undefined;
  // Setup and teardown flows alone are a run: the reproduce line of a failed one is such a command.
  if (positionals.length === 0 && !values.setup?.length && !values.teardown?.length) {
    throw new UsageError(
      "no-paths",
      "No flow files given.",
      "Usage: flowrun run <path>... (a flow file or a directory)",
    );
  }
  const runId = runIdOf(values["run-id"]);
  const limits = limitsOf(values);
  const load = loadPlan(values, positionals, host.env);
  const coverage = coverageOf(values);
  return {
    ...load,
    args,
    runId,
    ...limits,
    ...consoleOf(values, host),
    network: networkOf(values, host),
    artifacts: artifactPaths(values),
    ...selectionOf(values),
    ...rerunOf(values),
    ...(coverage ? { coverage } : {}),
  };
}
