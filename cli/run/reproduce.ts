/**
 * The command that reruns one flow of a run: printed under a failure and
 * written into CI annotations and reports, so it says the same run id and
 * options, and names secrets by their variables, never by their values.
 *
 * @module
 */
import { shellWord } from "../../lib/http/curl.ts";
import { maskUserinfo } from "../../lib/secrets/userinfo.ts";
import type { NetworkPlan, RunPlan } from "./options.ts";

/**
 * The plan's fields a rerun repeats.
 *
 * @example
 * ```ts
 * import type { RerunOptions } from "./reproduce.ts";
 * const plan: RerunOptions = {
 *   params: new Map(),
 *   setup: [],
 *   varsFiles: [],
 *   envFiles: [],
 *   secretNames: new Set(),
 *   network: { caFiles: [], insecure: false },
 * };
 * if (plan.network.insecure) throw new Error();
 * ```
 */
export type RerunOptions = Pick<
  RunPlan,
  | "params"
  | "setup"
  | "teardown"
  | "tags"
  | "filter"
  | "varsFiles"
  | "envFiles"
  | "authFile"
  | "allowCommands"
  | "secretNames"
  | "timeoutMs"
  | "maxBody"
  | "maxBodyMemory"
  | "trace"
  | "cookieJar"
  | "network"
>;

/**
 * An option and its value as one shell word: `--name=value` when the value
 * starts with "-", which as a word of its own would read as an option.
 */
function option(name: string, value: string): string {
  return value.startsWith("-") ? shellWord(`${name}=${value}`) : `${name} ${shellWord(value)}`;
}

/**
 * The flows run around this one and what of it runs: its setup (whose
 * outputs it reads) and teardown, and the tags and filter that chose its
 * steps. The shard is left out: naming the file already chose it, and a
 * shard of one file would select nothing.
 */
function selectionWords(plan: RerunOptions): string[] {
  const words: string[] = [];
  for (const file of plan.setup) words.push(option("--setup", file));
  for (const file of plan.teardown ?? []) words.push(option("--teardown", file));
  if (plan.tags !== undefined) words.push(option("--tag", plan.tags));
  for (const pattern of plan.filter ?? []) words.push(option("--filter", pattern));
  return words;
}

/** Whether `file` is one of the run's `--setup` or `--teardown` files (`./a.yaml` is `a.yaml`). */
function isSpecial(plan: RerunOptions, file: string): boolean {
  const norm = (p: string) => p.replace(/^\.\//, "").replaceAll("/./", "/");
  return [...plan.setup, ...plan.teardown ?? []].some((s) => norm(s) === norm(file));
}

/** `--var` words: a secret's value stays a reference to its variable. */
function varWords(
  plan: RerunOptions,
  isSecret: (name: string) => boolean,
  redact: (text: string) => string,
): string[] {
  const words: string[] = [];
  for (const [name, value] of plan.params) {
    // A --var name is a plain word (model/names.ts); the variable's name must expand.
    const variable = name.toUpperCase().replaceAll("-", "_");
    // A value is masked as a value: a short secret it is (`user=pass`) is not masked in the line.
    words.push(
      "--var",
      isSecret(name) ? `${name}="$${variable}"` : shellWord(`${name}=${redact(value)}`),
    );
  }
  return words;
}

/** The TLS and proxy words; the proxy's password is masked, and any other secret in it too. */
function networkWords(network: NetworkPlan, redact: (text: string) => string): string[] {
  const words: string[] = [];
  for (const file of network.caFiles) words.push(option("--cacert", file));
  if (network.cert && network.key) {
    words.push(option("--cert", network.cert), option("--key", network.key));
  }
  if (network.proxy) {
    words.push(option("--proxy", redact(maskUserinfo(network.proxy, { proxy: true }))));
  }
  if (network.noProxy) words.push(option("--no-proxy", network.noProxy));
  if (network.insecure) words.push("--insecure");
  return words;
}

/**
 * The command that reruns one flow file with the same run id and
 * parameters; secrets stay references. A setup or teardown file is named
 * only by its option (`flowrun run --setup s.yaml` runs just those flows). `self` gives the words that start
 * flowrun as this run was started (`started_as.ts`, the manifest's too; asked only when a command is made),
 * `redact` the CLI's redactor at the time of the call (it learns secrets as the run goes).
 *
 * @example
 * ```ts
 * import { reproducer } from "./reproduce.ts";
 * const reproduce = reproducer({
 *   plan: {
 *     params: new Map([["api_token", "x"], ["user", "ann"]]),
 *     setup: ["setup.yaml"],
 *     varsFiles: [],
 *     envFiles: [],
 *     secretNames: new Set(),
 *     timeoutMs: 5000,
 *     network: { caFiles: [], insecure: false },
 *   },
 *   isSecret: (name) => name.endsWith("token"),
 *   runId: "r1",
 *   self: () => ["flowrun"],
 *   redact: (text) => text,
 * });
 * const command = reproduce("-a.yaml");
 * if (command !== 'flowrun run ./-a.yaml --run-id r1 --setup setup.yaml --var api_token="$API_TOKEN" --var user=ann --timeout 5000') {
 *   throw new Error(command);
 * }
 * // A setup flow is named once, by its option.
 * if (!reproduce("./setup.yaml").startsWith("flowrun run --run-id r1 --setup setup.yaml ")) throw new Error();
 * ```
 */
export function reproducer(input: {
  plan: RerunOptions;
  isSecret: (name: string) => boolean;
  runId: string;
  self: () => readonly string[];
  redact: (text: string) => string;
}): (file: string) => string {
  const { plan, runId } = input;
  // The same for every flow, and asked for each failed one (twice: the console and the reports).
  let self: string | undefined;
  return (file) => {
    self ??= input.self().map(shellWord).join(" ");
    const words = [self, "run"];
    // A setup or teardown flow is named by its option alone: as a path too it would be named twice.
    if (!isSpecial(plan, file)) {
      // A name that reads as an option is given as a path (`./-x.yaml`), which names the same file.
      words.push(shellWord(file.startsWith("-") ? `./${file}` : file));
    }
    words.push(option("--run-id", runId));
    // Masked with the secrets known now, as every output is.
    words.push(...runOptions(plan, input.isSecret, input.redact));
    words.push(...networkWords(plan.network, input.redact));
    return words.join(" ");
  };
}

/** The options a rerun repeats, but the network's (masked when a command is made). */
function runOptions(
  plan: RerunOptions,
  isSecret: (name: string) => boolean,
  redact: (text: string) => string,
): string[] {
  const words: string[] = [];
  words.push(...selectionWords(plan), ...varWords(plan, isSecret, redact));
  for (const file of plan.varsFiles) words.push(option("--vars-file", file));
  for (const file of plan.envFiles) words.push(option("--env-file", file));
  // The auth a failed step was sent with: the same file, read again (its credentials stay in ENV).
  if (plan.authFile) words.push(option("--auth-file", plan.authFile));
  // Its flows (or auth file) run a program for their token: refused to load without it.
  if (plan.allowCommands) words.push("--allow-commands");
  for (const name of plan.secretNames) words.push(option("--secret", name));
  if (plan.timeoutMs !== undefined) words.push("--timeout", String(plan.timeoutMs));
  if (plan.maxBody !== undefined) words.push(option("--max-body", plan.maxBody));
  if (plan.maxBodyMemory !== undefined) {
    words.push(option("--max-body-memory", plan.maxBodyMemory));
  }
  if (plan.trace) words.push("--trace");
  if (plan.cookieJar) words.push("--cookie-jar");
  return words;
}
