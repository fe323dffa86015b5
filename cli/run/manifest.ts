/**
 * The run's manifest (`--manifest`): what ran, where, with which exit code,
 * and the hashes of the flow files and of every artifact this run wrote.
 * The manifest module is loaded only when one is asked for.
 *
 * @module
 */
import type { RunResult } from "../../lib/model/result.ts";
import { VERSION } from "../../lib/model/version.ts";
import type { ManifestFlow } from "../../lib/report/manifest.ts";
import { maskUserinfo } from "../../lib/secrets/userinfo.ts";
import type { Artifacts } from "./artifacts.ts";

/**
 * What the manifest records of a run that has ended (see
 * {@linkcode writeManifest} for one in use).
 *
 * @example
 * ```ts
 * import type { ManifestRun } from "./manifest.ts";
 * const args: ManifestRun["args"] = ["flows/", "--out-dir", "out"];
 * if (args.length !== 3) throw new Error();
 * ```
 */
export interface ManifestRun {
  /** The manifest's path. */
  path: string;
  /** The run's result. */
  result: RunResult;
  /** When the run started (ISO 8601). */
  startedAt: string;
  /** The code the process exits with. */
  exitCode: number;
  /** The words that started flowrun (`started_as.ts`); `flowrun` unless told. */
  started?: readonly string[];
  /** The arguments of `flowrun run`, as given. */
  args: readonly string[];
  /** The shard this machine ran, if any. */
  shard: { index: number; total: number; source?: string } | undefined;
  /** The flow files and their bytes or hashes. */
  flows: ManifestFlow[];
  /** The environment variables the flows read, by name. */
  envRead: ReadonlySet<string>;
  /** The environment. */
  env: (name: string) => string | undefined;
  /** Masks the secrets in the command. */
  redact: (text: string) => string;
  /**
   * Masks a word of the command that names the run's flow files (the user's own path, as the
   * reports write it): long secrets only, as `Redactor.redactOutput`; `redact` when not given.
   */
  redactPath?: (text: string) => string;
}

/** Whether a word of the command names one of `flows` or a folder holding one. */
function namesFlows(word: string, flows: readonly ManifestFlow[]): boolean {
  const folder = word.endsWith("/") ? word : `${word}/`;
  return flows.some((f) => f.file === word || f.file.startsWith(folder));
}

/**
 * Builds the manifest and writes it as the run's last artifact.
 *
 * @example
 * ```ts
 * import { writeManifest } from "./manifest.ts";
 * import { Artifacts } from "./artifacts.ts";
 * import { invalidRunResult } from "../../lib/run/invalid_run.ts";
 * const dir = await Deno.makeTempDir();
 * const artifacts = await Artifacts.open({ manifest: `${dir}/manifest.json` });
 * await writeManifest(artifacts, {
 *   path: `${dir}/manifest.json`,
 *   result: invalidRunResult({ run_id: "r1", started_at: "", problems: [], files: [] }),
 *   startedAt: "",
 *   exitCode: 0,
 *   args: ["flows/"],
 *   shard: undefined,
 *   flows: [],
 *   envRead: new Set(),
 *   env: () => undefined,
 *   redact: (text) => text,
 * });
 * const manifest = JSON.parse(await Deno.readTextFile(`${dir}/manifest.json`));
 * await Deno.remove(dir, { recursive: true });
 * if (manifest.run_id !== "r1" || manifest.command.join(" ") !== "flowrun run flows/") throw new Error();
 * ```
 */
export async function writeManifest(artifacts: Artifacts, run: ManifestRun): Promise<void> {
  const manifestMod = await import("../../lib/report/manifest.ts");
  const manifest = await manifestMod.buildManifest({
    run_id: run.result.run_id,
    runner_version: VERSION,
    deno_version: Deno.version.deno,
    os: Deno.build.os,
    arch: Deno.build.arch,
    started_at: run.startedAt,
    ended_at: new Date().toISOString(),
    exit_code: run.exitCode,
    // A URL's password is masked whole whatever its length (the redactor skips short ones).
    // Flowrun as it was started, as the reproduce lines start it.
    command: [...run.started ?? ["flowrun"], "run", ...run.args].map((word) =>
      namesFlows(word, run.flows)
        ? (run.redactPath ?? run.redact)(word)
        : run.redact(maskUserinfo(word))
    ),
    shard: run.shard ?? null,
    flows: run.flows,
    env_read: [...run.envRead],
    env: run.env,
    // Hashes of the bytes this run wrote, never of files read back.
    artifacts: artifacts.written,
  });
  await artifacts.write("manifest", run.path, manifestMod.manifestText(manifest));
}
