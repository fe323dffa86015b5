/**
 * What `run` and `validate` both load, built one way so their verdicts
 * cannot drift: the options that change what is loaded
 * ({@linkcode LOAD_OPTIONS}), checked into a {@linkcode LoadPlan}; the files
 * they name read ({@linkcode readLoadInputs}); the loader's options
 * ({@linkcode loadOptionsOf}); and the problems that keep a run from
 * sending anything ({@linkcode loadProblems}).
 *
 * @module
 */
import * as io from "../../lib/io/mod.ts";
import type { DeferredLoadResult, LoadFlowsOptions } from "../../lib/load/suite.ts";
import { type Problem, UsageError } from "../../lib/model/errors.ts";
import { MAX_RECORDING_BYTES } from "../../lib/model/limits.ts";
import { parseShard, type Shard, shardFromEnv } from "../../lib/select/shard.ts";
import type { Auth } from "../../lib/model/auth.ts";
import type { AuthFileResult } from "../../lib/load/auth_file.ts";
import { readRunAuth } from "./auth_file.ts";
import type { ParsedValues } from "../args.ts";
import { parseParams } from "../option_values.ts";
import { readShardTimings, readVarFiles } from "./inputs.ts";
import { nothingSelected } from "./invalid.ts";
import { maskedProblems } from "./problem_masks.ts";
import { redactor } from "../output.ts";
import { flowEnv, learnSecrets, type RunSecrets, type SecretSink } from "./secrets.ts";

/**
 * The options of `run` that change what is loaded and so its verdict
 * before sending; `validate` takes exactly these too.
 *
 * @example
 * ```ts
 * import { LOAD_OPTIONS } from "./load_step.ts";
 * if (LOAD_OPTIONS.setup.type !== "string" || !LOAD_OPTIONS.var.multiple) throw new Error();
 * ```
 */
export const LOAD_OPTIONS = {
  var: { type: "string", multiple: true },
  "vars-file": { type: "string", multiple: true },
  "env-file": { type: "string", multiple: true },
  secret: { type: "string", multiple: true },
  shard: { type: "string" },
  "shard-timings": { type: "string", multiple: true },
  filter: { type: "string", multiple: true },
  tag: { type: "string" },
  setup: { type: "string", multiple: true },
  teardown: { type: "string", multiple: true },
  "auth-file": { type: "string" },
  "allow-commands": { type: "boolean" },
  "file-root": { type: "string" },
} as const;

/**
 * What is loaded, checked: the paths and the options of {@linkcode LOAD_OPTIONS}.
 *
 * @example
 * ```ts
 * import { loadPlan } from "./load_step.ts";
 * const plan = loadPlan({ setup: ["s.yaml"] }, ["flows/"], () => undefined);
 * if (plan.setup[0] !== "s.yaml" || plan.paths[0] !== "flows/") throw new Error();
 * ```
 */
export interface LoadPlan {
  /** The flow files and directories, as given. */
  paths: string[];
  /** `--var` pairs, later ones winning. */
  params: Map<string, string>;
  /** `--vars-file` files, in order. */
  varsFiles: string[];
  /** `--env-file` files, in order. */
  envFiles: string[];
  /** `--secret` names, each once. */
  secretNames: Set<string>;
  /** `--shard`, and where `--shard auto` found it. */
  shard?: Shard & { source?: string };
  /** `--shard-timings` reports. */
  shardTimings?: string[];
  /** `--filter` patterns. */
  filter?: string[];
  /** `--tag`. */
  tags?: string;
  /** `--setup` files (always given: `${setup.NAME}` is then checked, also when there are none). */
  setup: string[];
  /** `--teardown` files. */
  teardown?: string[];
  /** `--auth-file`. */
  authFile?: string;
  /**
   * The run's auth once read (by {@linkcode readLoadInputs}) from the auth file or a vars
   * file's `auth:` block: its problems are the run's.
   */
  auth?: AuthFileResult;
  /** `--allow-commands`: flow files may run programs (`bearer: {command: […]}`). */
  allowCommands?: boolean;
  /** `--file-root`: the folder the files flows name must lie in. */
  fileRoot?: string;
  /** False for `validate --no-env`: unset environment variables are no problem, in the auth too. */
  checkEnv?: boolean;
}

/** `--shard` (`I/N`, or `auto` from the CI's variables) and `--shard-timings`, which needs it. */
function shardOf(
  values: ParsedValues<typeof LOAD_OPTIONS>,
  env: (name: string) => string | undefined,
) {
  let shard: LoadPlan["shard"];
  if (values.shard === "auto") {
    const found = shardFromEnv(env);
    shard = { ...found.shard, source: found.source };
  } else if (values.shard !== undefined) shard = parseShard(values.shard);
  const shardTimings = values["shard-timings"]?.length ? values["shard-timings"] : undefined;
  if (shardTimings && !shard) {
    throw new UsageError(
      "bad-shard-timings",
      "--shard-timings balances a sharded run, but there is no --shard.",
      "Add --shard I/N (or --shard auto), or leave --shard-timings out.",
    );
  }
  return { shard, shardTimings };
}

/**
 * The load plan of parsed options: `--var` and the shard are checked (a
 * {@linkcode UsageError} for the first at fault); no file is read.
 *
 * @example
 * ```ts
 * import { loadPlan } from "./load_step.ts";
 * const plan = loadPlan({ var: ["a=1"], shard: "2/3" }, ["f.yaml"], () => undefined);
 * if (plan.params.get("a") !== "1" || plan.shard?.index !== 2) throw new Error();
 * ```
 */
export function loadPlan(
  values: ParsedValues<typeof LOAD_OPTIONS>,
  paths: string[],
  env: (name: string) => string | undefined,
): LoadPlan {
  const params = parseParams(values.var);
  return {
    paths,
    params,
    varsFiles: values["vars-file"] ?? [],
    envFiles: values["env-file"] ?? [],
    secretNames: new Set(values.secret ?? []),
    ...shardOf(values, env),
    filter: values.filter,
    tags: values.tag,
    setup: values.setup ?? [],
    teardown: values.teardown,
    authFile: values["auth-file"],
    allowCommands: values["allow-commands"],
    fileRoot: values["file-root"],
  };
}

/**
 * What the files of a {@linkcode LoadPlan} give: the run parameters
 * (`--vars-file`, then `--var`), the secrets, the shard timings and the
 * environment as the flows read it (the process's over `--env-file`'s).
 *
 * @example
 * ```ts
 * import type { LoadInputs } from "./load_step.ts";
 * const inputs: LoadInputs = {
 *   params: new Map(),
 *   secrets: { variables: new Map(), isSecret: () => false },
 *   env: () => undefined,
 *   envRead: new Set(),
 * };
 * if (inputs.params.size !== 0) throw new Error();
 * ```
 */
export interface LoadInputs {
  /** Run parameters: `--vars-file` files, then `--var`, later ones winning. */
  params: Map<string, string>;
  /** The secrets known before anything is printed. */
  secrets: RunSecrets;
  /** `--shard-timings`: ms per flow file. */
  shardTimes?: Map<string, number>;
  /** The environment as the flows read it. */
  env: (name: string) => string | undefined;
  /** The names the flows read from it (for the manifest). */
  envRead: Set<string>;
  /** `--auth-file`'s block, or a `--vars-file`'s: the auth of every step whose flow has none. */
  auth?: Auth;
}

/**
 * Reads the files a load plan names and learns its secrets (into `sink`),
 * in a fixed order; a file that cannot be used is a {@linkcode UsageError}
 * naming the option.
 *
 * @example
 * ```ts
 * import { loadPlan, readLoadInputs } from "./load_step.ts";
 * const plan = loadPlan({ var: ["user=ann"] }, ["f.yaml"], () => undefined);
 * const inputs = await readLoadInputs(plan, { add: () => {} });
 * if (inputs.params.get("user") !== "ann") throw new Error();
 * ```
 */
export async function readLoadInputs(plan: LoadPlan, sink: SecretSink): Promise<LoadInputs> {
  const { params, envFile, varsAuth } = await readVarFiles(plan, io.readText);
  const secrets = learnSecrets({
    secretNames: plan.secretNames,
    params,
    envFile,
    env: io.readEnv,
    sink,
  });
  const shardTimes = await readShardTimings(
    plan.shardTimings,
    (path) => io.readText(path, { limit: MAX_RECORDING_BYTES }),
  );
  const { env, read: envRead } = flowEnv({ env: io.readEnv, envFile, secrets, sink });
  // --auth-file's block, or a --vars-file's: its problems are the run's load problems (see
  // loadProblems).
  plan.auth = await readRunAuth(plan.authFile, varsAuth, env, plan.allowCommands, plan.checkEnv);
  return { params, secrets, shardTimes, env, envRead, auth: plan.auth?.auth };
}

/**
 * The loader's options for a plan and its inputs (the caller adds what
 * only it needs: a cache, a spill, a signal, `checkEnv`).
 *
 * @example
 * ```ts
 * import { loadOptionsOf, loadPlan } from "./load_step.ts";
 * const plan = loadPlan({ tag: "smoke" }, ["f.yaml"], () => undefined);
 * const inputs = { params: new Map(), secrets: { variables: new Map(), isSecret: () => false }, env: () => undefined, envRead: new Set<string>() };
 * const options = loadOptionsOf(plan, inputs);
 * if (options.tags !== "smoke" || options.setupFiles?.length !== 0) throw new Error();
 * ```
 */
export function loadOptionsOf(
  plan: LoadPlan,
  inputs: LoadInputs,
  named: readonly string[] = [],
): LoadFlowsOptions {
  return {
    env: inputs.env,
    params: inputs.params,
    shard: plan.shard,
    shardTimes: inputs.shardTimes,
    filter: plan.filter,
    tags: plan.tags,
    setupFiles: plan.setup,
    teardownFiles: plan.teardown,
    allowCommands: plan.allowCommands,
    ...(plan.fileRoot === undefined
      ? { namedFiles: named }
      : { fileRoots: io.fileRootsFor([], plan.fileRoot, named) }),
  };
}

/**
 * The problems that keep the loaded set from running: its files'
 * problems (what they quote of a file masked, see `problem_masks.ts`), else
 * a `--filter` or `--tag` that selected nothing.
 *
 * @example
 * ```ts
 * import { loadPlan, loadProblems } from "./load_step.ts";
 * const plan = loadPlan({ tag: "smoke" }, ["f.yaml"], () => undefined);
 * const problems = await loadProblems(plan, { problems: [], files: [] }, () => Promise.resolve(3));
 * if (problems[0].code !== "no-match") throw new Error();
 * ```
 */
export async function loadProblems(
  plan: LoadPlan,
  loaded:
    & Pick<DeferredLoadResult, "problems" | "files">
    & Partial<Pick<DeferredLoadResult, "setup" | "teardown" | "tagsSeen">>,
  discovered: () => Promise<number> = async () => (await io.discoverFlowEntries(plan.paths)).length,
): Promise<Problem[]> {
  // What they quote of the files is masked by every secret known by now (the other files read
  // them), before the console, the annotations or a report writes a word of it.
  if (plan.auth?.problems.length) {
    return maskedProblems([...plan.auth.problems, ...loaded.problems], redactor);
  }
  if (loaded.problems.length > 0) return maskedProblems(loaded.problems, redactor);
  if (plan.filter === undefined && plan.tags === undefined) return [];
  // Setup and teardown flows are always loaded: a selection that leaves only them selected
  // nothing (a misspelt --tag ran them alone and passed). Without paths they are the run.
  const special = (loaded.setup?.length ?? 0) + (loaded.teardown?.length ?? 0);
  if (loaded.files.length > special || plan.paths.length === 0) return [];
  return nothingSelected(plan.filter ?? [], plan.tags, await discovered(), loaded.tagsSeen);
}
