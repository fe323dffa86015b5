/**
 * `flowrun send [METHOD] URL [options]`: one request from the command line,
 * printed as `flowrun run -vv` prints an exchange, for exploring an API
 * before writing the flow.
 *
 * Nothing here sends or prints in a way of its own: the request becomes a
 * one-step flow (send/flow.ts), which is loaded and checked as a flow file
 * is (so `${ENV.X}` and every other expression are expanded, and every
 * mistake is one positioned problem before anything is sent) and run by
 * the runner with run's own options (`--timeout`, TLS, proxy, `--max-body`,
 * `--env-file`, `--secret`, checked by run's planner); its step is printed
 * by the console's step printer (send/print.ts) through the CLI's masked
 * output. `--flow` prints that flow, which sends the same bytes. The
 * arguments become the request in send/request.ts.
 *
 * Exit codes: 0 a response arrived, whatever its status (with `--fail`:
 * below 400); 1 no response (network, timeout, body over `--max-body`), or
 * `--fail` and a status of 400 or more; 2 a usage error or a problem in
 * the request, nothing sent.
 *
 * @module
 */
import * as io from "../lib/io/mod.ts";
import { FlowFiles } from "../lib/load/expand_includes.ts";
import { withEngines } from "../lib/load/engines.ts";
import type { LoadResult } from "../lib/load/load_flow.ts";
import { UsageError } from "../lib/model/errors.ts";
import type { Flow } from "../lib/model/flow.ts";
import type { StepResult } from "../lib/model/result.ts";
import { formatProblems, style } from "../lib/report/console.ts";
import type { Network } from "../lib/run/context.ts";
import { runFlow } from "../lib/run/flows.ts";
import { command, type ParsedValues } from "./args.ts";
import { EXIT } from "./exit.ts";
import { err, out, redactor, useColor } from "./output.ts";
import { readNetwork } from "./run/inputs.ts";
import { type LoadInputs, readLoadInputs } from "./run/load_step.ts";
import { RUN_OPTIONS, type RunHost, type RunPlan, runPlan } from "./run/options.ts";
import { insecureWarning } from "./run/warnings.ts";
import { sendFlow } from "./send/flow.ts";
import { exchangeLines } from "./send/print.ts";
import { SEND_USAGE, sendRequest } from "./send/request.ts";

/** The options of `run` that shape how a request is sent, and the environment it reads. */
const RUN_SHARED = {
  timeout: RUN_OPTIONS.timeout,
  "max-body": RUN_OPTIONS["max-body"],
  cacert: RUN_OPTIONS.cacert,
  cert: RUN_OPTIONS.cert,
  key: RUN_OPTIONS.key,
  proxy: RUN_OPTIONS.proxy,
  "no-proxy": RUN_OPTIONS["no-proxy"],
  insecure: RUN_OPTIONS.insecure,
  "env-file": RUN_OPTIONS["env-file"],
  secret: RUN_OPTIONS.secret,
} as const;

/**
 * The options `flowrun send` accepts; its `--help` lists each.
 *
 * @example
 * ```ts
 * import { SEND_OPTIONS } from "./send.ts";
 * if (SEND_OPTIONS.header.short !== "H" || !SEND_OPTIONS.header.multiple) throw new Error();
 * ```
 */
export const SEND_OPTIONS = {
  request: { type: "string", short: "X" },
  header: { type: "string", short: "H", multiple: true },
  data: { type: "string", short: "d", multiple: true },
  json: { type: "string", multiple: true },
  form: { type: "string", multiple: true },
  follow: { type: "boolean", short: "L" },
  fail: { type: "boolean" },
  flow: { type: "boolean" },
  ...RUN_SHARED,
  color: RUN_OPTIONS.color,
  "no-color": RUN_OPTIONS["no-color"],
  help: { type: "boolean", short: "h" },
} as const;

type Values = ParsedValues<typeof SEND_OPTIONS>;

/** The file name the request's flow is loaded as: relative paths in it are the working directory's. */
const FILE = "(request)";

/** This process, as run's planner reads it. */
const HOST: RunHost = {
  env: io.readEnv,
  isTerminal: () => Deno.stdout.isTerminal(),
  secret: (value) => redactor.add(value),
};

/** The run options given to send, as `flowrun run` takes them (`--name=value`: any value is one). */
function runArgsOf(values: Values): string[] {
  const args: string[] = [];
  for (const name of Object.keys(RUN_SHARED) as (keyof typeof RUN_SHARED)[]) {
    const value = values[name];
    if (value === true) args.push(`--${name}`);
    else if (typeof value === "string") args.push(`--${name}=${value}`);
    else if (Array.isArray(value)) args.push(...value.map((v) => `--${name}=${v}`));
  }
  return args;
}

/** Loads the request's flow as a flow file is loaded: every expression checked, nothing sent. */
function loadRequest(text: string, inputs: LoadInputs): Promise<LoadResult> {
  // No setup runs before a sent request: ${setup.x} is a problem, as in a run without --setup.
  const options = {
    env: inputs.env,
    params: inputs.params,
    checkEnv: true,
    setup: new Set<string>(),
  };
  return withEngines(() => new FlowFiles(options).load(FILE, text));
}

/** Sends the loaded request with run's options; its step's result, masked. */
async function sendLoaded(
  flow: Flow,
  plan: RunPlan,
  inputs: LoadInputs,
  network: Network | undefined,
): Promise<StepResult> {
  if (network?.insecure) err(insecureWarning(true, [])!);
  const result = await runFlow(flow, {
    env: inputs.env,
    params: inputs.params,
    redactor,
    secrets: [...plan.secretNames],
    secretVariables: inputs.secrets.variables,
    verbose: 2,
    timeoutMs: plan.timeoutMs,
    maxBodyBytes: plan.maxBodyBytes,
    network,
  });
  return result.steps[0];
}

/** The exit code of a sent request, with why it is not 0 on standard error. */
function exitCode(step: StepResult, fail: boolean): number {
  if (!step.response) {
    err(`${step.message ?? "No response arrived."}\n`);
    return EXIT.failed;
  }
  if (fail && step.response.status >= 400) {
    err(
      `The server answered ${step.response.status} (--fail: exit 1 for a status of 400 or more).\n`,
    );
    return EXIT.failed;
  }
  return EXIT.passed;
}

/** The closing line of the request's problems: where their lines are. */
const IN_REQUEST = " in the request (lines of the flow that --flow prints); nothing was sent.\n";

/**
 * Prints the request's flow. A secret written on the command line is
 * masked in it like everywhere else, so that flow would send `***`: a note
 * says how to keep the secret out of it.
 */
function printFlow(text: string): void {
  out(text);
  if (redactor.redact(text) !== text) {
    err(
      "note: a secret written on the command line is masked (***) in the flow, which would send " +
        "that; write it as ${ENV.NAME} (set NAME in the environment or an --env-file) instead.\n",
    );
  }
}

/**
 * Runs `flowrun send`; resolves to the exit code.
 *
 * @example
 * ```ts ignore
 * import { send } from "./send.ts";
 * Deno.exit(await send(["POST", "http://localhost:8080/items", "--json", '{"name": "box"}']));
 * ```
 */
export async function send(args: string[]): Promise<number> {
  const parsed = command(
    args,
    SEND_OPTIONS,
    new UsageError("bad-url", "No URL given.", SEND_USAGE),
    "send",
  );
  if (!parsed) return EXIT.passed;
  const { values, positionals } = parsed;
  const request = sendRequest(values, positionals);
  const runArgs = runArgsOf(values);
  // Run's own planner checks run's options: the same words, limits and messages.
  const plan = runPlan([FILE, ...runArgs], HOST)!;
  const inputs = await readLoadInputs(plan, redactor);
  const network = await readNetwork(plan.network, io.readText);
  const text = sendFlow(request, runArgs);
  const s = style(useColor(values));
  const loaded = await loadRequest(text, inputs);
  if (!loaded.flow) {
    const problems = formatProblems(loaded.problems, s, "nothing was sent");
    // Lines are those of the flow --flow prints (the request as a flow file), as "(request)".
    err(problems.replace(/ in 1 file; nothing was sent\.\n$/, IN_REQUEST));
    return EXIT.usage;
  }
  const step = await sendLoaded(loaded.flow, plan, inputs, network);
  // With --flow the flow is the output (to save or pipe), and the exchange goes beside it.
  const lines = exchangeLines(step, s);
  if (lines.length > 0) (values.flow ? err : out)(lines.join("\n") + "\n");
  const code = exitCode(step, values.fail === true);
  if (values.flow) printFlow(text);
  return code;
}
