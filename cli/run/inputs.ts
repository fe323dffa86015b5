/**
 * The files a run reads before it loads its flows: `--vars-file` and
 * `--env-file`, the PEM files of `--cacert`/`--cert`/`--key`, and the
 * reports of `--shard-timings` and `--history`. A file that cannot be used is a usage
 * error naming the option; nothing has been sent.
 *
 * @module
 */
import * as io from "../../lib/io/mod.ts";
import { clientProblem } from "../../lib/io/client_check.ts";
import { yamlEngine } from "../../lib/load/yaml_engine.ts";
import { UsageError } from "../../lib/model/errors.ts";
import { maskUserinfo } from "../../lib/secrets/userinfo.ts";
import type { Network } from "../../lib/run/context.ts";
import type { NetworkPlan, RunPlan } from "./options.ts";
import type { VarsFileAuth } from "./auth_file.ts";

/**
 * Reads a text file; a real run passes `io.readText`.
 *
 * @example
 * ```ts
 * import type { ReadText } from "./inputs.ts";
 * const read: ReadText = (path) => Promise.resolve(`text of ${path}`);
 * if (await read("a") !== "text of a") throw new Error();
 * ```
 */
export type ReadText = (path: string) => Promise<string>;

/**
 * The code of an input file that is not a regular file or is too large
 * (`not-a-regular-file`, `input-too-large`), whatever option named it.
 */
function fileCode(error: unknown): string | undefined {
  return error instanceof io.InputFileError && error.code !== "file-read" ? error.code : undefined;
}

/** An error's message as the end of a sentence. */
const clause = (error: unknown) => (error as Error).message.replace(/\.$/, "");

/**
 * The run parameters (`--vars-file`, then `--var`, later ones winning), the
 * variables of `--env-file` (later files winning), and the vars files whose
 * `auth:` is a block (the run's auth, loaded by `auth_file.ts`).
 *
 * @example
 * ```ts
 * import { readVarFiles } from "./inputs.ts";
 * const plan = { varsFiles: [], envFiles: [], params: new Map([["a", "1"]]) };
 * const { params, envFile, varsAuth } = await readVarFiles(plan, () => Promise.reject(new Error("unread")));
 * if (params.get("a") !== "1" || envFile.size !== 0 || varsAuth.length !== 0) throw new Error();
 * ```
 */
export async function readVarFiles(
  plan: Pick<RunPlan, "varsFiles" | "envFiles" | "params">,
  readText: ReadText,
): Promise<
  { params: Map<string, string>; envFile: Map<string, string>; varsAuth: VarsFileAuth[] }
> {
  if (plan.varsFiles.length === 0 && plan.envFiles.length === 0) {
    // Most runs have no such file: the YAML parser they would need is not loaded at all.
    return { params: new Map(plan.params), envFile: new Map(), varsAuth: [] };
  }
  const { parseEnvFile, readVarsFile } = await import("../../lib/load/var_files.ts");
  if (plan.varsFiles.length > 0) await yamlEngine.load();
  const read = async (path: string, option: string) => {
    try {
      return await readText(path);
    } catch (error) {
      throw new UsageError(
        fileCode(error) ?? "file-read",
        `${option} ${path}: ${clause(error)}.`,
        "Check the path: it is relative to the current directory.",
      );
    }
  };
  const params = new Map<string, string>();
  const varsAuth: VarsFileAuth[] = [];
  for (const file of plan.varsFiles) {
    const text = await read(file, "--vars-file");
    const { vars, auth } = readVarsFile(text, file);
    for (const [k, v] of vars) params.set(k, v);
    if (auth) varsAuth.push({ file, text });
  }
  for (const [k, v] of plan.params) params.set(k, v);
  const envFile = new Map<string, string>();
  for (const file of plan.envFiles) {
    for (const [k, v] of parseEnvFile(await read(file, "--env-file"), file)) envFile.set(k, v);
  }
  return { params, envFile, varsAuth };
}

/** Reads one PEM file of `--cacert`, `--cert` or `--key`. */
async function pem(option: string, path: string, read: ReadText): Promise<string> {
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
}

/** The error codes of the options {@linkcode clientProblem} may find at fault. */
const CLIENT_CODES = { ca: "bad-cacert", cert: "bad-cert", key: "bad-key", proxy: "bad-proxy" };

/**
 * The network options with the PEM files read, or undefined when none is
 * given. The runtime builds its client at the first request: whatever it
 * would refuse there is refused here, before anything is sent, with the
 * option at fault named.
 *
 * @example
 * ```ts
 * import { readNetwork } from "./inputs.ts";
 * const none = { caFiles: [], insecure: false };
 * if (await readNetwork(none, () => Promise.reject(new Error())) !== undefined) throw new Error();
 * const network = await readNetwork({ ...none, insecure: true }, () => Promise.reject(new Error()));
 * if (network?.insecure !== true) throw new Error();
 * ```
 */
export async function readNetwork(
  plan: NetworkPlan,
  read: ReadText,
): Promise<Network | undefined> {
  const { proxy, insecure } = plan;
  const caCerts = await Promise.all(plan.caFiles.map((p) => pem("cacert", p, read)));
  const clientCert = plan.cert && plan.key
    ? { cert: await pem("cert", plan.cert, read), key: await pem("key", plan.key, read) }
    : undefined;
  const noProxy = plan.noProxy?.split(",").map((h) => h.trim()).filter(Boolean);
  const problem = clientProblem({ caCerts, ...clientCert, proxy, insecure }, {
    ca: (i) => `--cacert "${plan.caFiles[i]}"`,
    cert: `--cert "${plan.cert}"`,
    key: `--key "${plan.key}"`,
    proxy: `--proxy "${maskUserinfo(proxy ?? "", { proxy: true })}"`,
  });
  if (problem) throw new UsageError(CLIENT_CODES[problem.part], problem.message, problem.hint);
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
 * `--shard-timings`: the durations per flow file in earlier JSON reports,
 * to balance `--shard` by time. A report that cannot be read or parsed is a
 * usage error; one without flows adds nothing.
 *
 * @example
 * ```ts
 * import { readShardTimings } from "./inputs.ts";
 * if (await readShardTimings(undefined, () => Promise.reject(new Error())) !== undefined) {
 *   throw new Error();
 * }
 * ```
 */
export async function readShardTimings(
  files: readonly string[] | undefined,
  read: ReadText,
): Promise<Map<string, number> | undefined> {
  if (!files || files.length === 0) return undefined;
  const reports = await readReports(files, "shard-timings", read, (report) => report);
  const { durationsFromReports } = await import("../../lib/select/shard_time.ts");
  return durationsFromReports(reports);
}

/**
 * Earlier JSON reports, as an option names them (`--shard-timings`,
 * `--history`), each parsed and then made what the run keeps of it by
 * `keep` (so a large one is garbage before the next is read). A report that
 * cannot be read or parsed is a usage error (`bad-<option>`, or the file's
 * own code: `not-a-regular-file`, `input-too-large`).
 *
 * @example
 * ```ts
 * import { readReports } from "./inputs.ts";
 * const runs = await readReports(["a.json"], "history", () => Promise.resolve('{"run_id":"r"}'), (r) => (r as { run_id: string }).run_id);
 * if (runs[0] !== "r") throw new Error();
 * ```
 */
export async function readReports<T>(
  files: readonly string[],
  option: "shard-timings" | "history",
  read: ReadText,
  keep: (report: unknown) => T,
): Promise<T[]> {
  const kept: T[] = [];
  for (const file of files) {
    try {
      kept.push(keep(JSON.parse(await read(file))));
    } catch (error) {
      throw new UsageError(
        fileCode(error) ?? `bad-${option}`,
        `Cannot use --${option} "${file}": ${clause(error)}.`,
        "Give the JSON report (--report-json) of an earlier run of the same flows.",
      );
    }
  }
  return kept;
}
