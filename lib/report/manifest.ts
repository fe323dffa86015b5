/**
 * The run manifest (`--manifest FILE`): what ran, where, and what it
 * produced, so a CI artifact can be traced back to the exact flow files and
 * checked for tampering later. It records:
 *
 * - the run: id, runner and Deno versions, OS and architecture, start and end
 *   time, exit code, the command line (secret values already masked by the
 *   caller) and the shard, if any;
 * - the SHA-256 of every flow file that ran, in run order;
 * - the names (never the values) of the environment variables the flows read;
 * - CI provenance (provider, commit, ref, pipeline, job, job URL), read from a
 *   fixed list of well-known CI variables and nothing else;
 * - every artifact written (JUnit, JSON report, log) with its size and
 *   SHA-256, so `sha256sum` can confirm an artifact is the one this run wrote.
 *
 * The text is JSON, 2-space indented, keys in the order of
 * {@linkcode Manifest}'s declaration whatever order the object was built in,
 * so two manifests diff cleanly.
 *
 * @module
 */
import { type CiProvenance, ciProvenance } from "./ci_provenance.ts";

export { type CiProvenance, ciProvenance };

/**
 * The version of the manifest format, written as `manifest_version`. Adding
 * fields keeps it; removing or renaming one, or changing its meaning,
 * increments it.
 *
 * @example
 * ```ts
 * import { MANIFEST_VERSION } from "./manifest.ts";
 * if (MANIFEST_VERSION !== 1) throw new Error();
 * ```
 */
export const MANIFEST_VERSION = 1;

/** What the manifest records about the run as it is given. */
export interface RunFacts {
  /** The run id. */
  run_id: string;
  /** The flowrun version. */
  runner_version: string;
  /** The Deno version that ran it. */
  deno_version: string;
  /** The operating system (`linux`, `darwin`, `windows`). */
  os: string;
  /** The CPU architecture (`x86_64`, `aarch64`). */
  arch: string;
  /** ISO 8601 time the run started. */
  started_at: string;
  /** ISO 8601 time the run ended (after the other artifacts were written). */
  ended_at: string;
  /** The exit code of the run. */
  exit_code: number;
  /** The command line as run; the caller has already redacted secret values. */
  command: string[];
  /** The shard this run was (`--shard 2/4`), with where it came from when detected; `null` when not sharded. */
  shard: { index: number; total: number; source?: string } | null;
}

/**
 * A flow file for the manifest: its bytes, or their SHA-256 when the run
 * released the bytes early.
 *
 * @example
 * ```ts
 * import type { ManifestFlow } from "./manifest.ts";
 * const flow: ManifestFlow = { file: "a.yaml", sha256: "ab12" };
 * if (!("sha256" in flow)) throw new Error();
 * ```
 */
export type ManifestFlow = { file: string; bytes: Uint8Array } | { file: string; sha256: string };

/**
 * What {@linkcode buildManifest} needs; the caller gathers it (this module
 * reads nothing by itself).
 *
 * @example
 * ```ts
 * import type { ManifestInput } from "./manifest.ts";
 * const input: ManifestInput = {
 *   run_id: "r1", runner_version: "0.1.0", deno_version: "2.9.6", os: "linux", arch: "x86_64",
 *   started_at: "2025-03-01T10:15:00.000Z", ended_at: "2025-03-01T10:15:02.000Z", exit_code: 0,
 *   command: ["flowrun", "run", "flows/"], shard: null, flows: [], env_read: [],
 *   env: () => undefined, artifacts: [],
 * };
 * if (input.exit_code !== 0) throw new Error();
 * ```
 */
export interface ManifestInput extends RunFacts {
  /**
   * Flow files with their bytes, or the SHA-256 of them taken during the run
   * (so a long run need not keep every file), in run order.
   */
  flows: ManifestFlow[];
  /** Names (never values) of environment variables the run read. */
  env_read: string[];
  /** Environment access for CI provenance (only well-known CI variables are read). */
  env: (name: string) => string | undefined;
  /**
   * Artifacts already written, with the bytes this run wrote (never read
   * back: another run may have replaced the file), or their SHA-256 and size
   * for a streamed artifact such as the log. These are what `lib/io/`
   * returns: `writeFileAtomic` gives the bytes, the log writer's `close()` a
   * `{ path, size, sha256 }` to spread in beside the kind.
   */
  artifacts: (
    | { kind: "junit" | "json" | "log" | string; path: string; bytes: Uint8Array }
    | { kind: string; path: string; sha256: string; size: number }
  )[];
}

/**
 * The manifest as written. Key order of the text is the order declared here.
 *
 * @example
 * ```ts
 * import type { Manifest } from "./manifest.ts";
 * const m: Manifest = {
 *   manifest_version: 1, run_id: "r1", runner_version: "0.1.0", deno_version: "2.9.6",
 *   os: "linux", arch: "x86_64", started_at: "", ended_at: "", exit_code: 0,
 *   command: ["flowrun", "run", "flows/"], shard: null, flows: [], env_read: [], ci: null,
 *   artifacts: [],
 * };
 * if (m.manifest_version !== 1) throw new Error();
 * ```
 */
export interface Manifest extends RunFacts {
  /** The manifest format version. */
  manifest_version: typeof MANIFEST_VERSION;
  /** Flow files in run order with the SHA-256 (lower-case hex) of their bytes. */
  flows: { file: string; sha256: string }[];
  /** Sorted by UTF-16 code units (not by locale, so every machine agrees), without duplicates. */
  env_read: string[];
  /** Where the run happened in CI, or null outside CI. */
  ci: CiProvenance | null;
  /** In the order given; `bytes` is the size. */
  artifacts: { kind: string; path: string; sha256: string; bytes: number }[];
}

/**
 * The SHA-256 of `bytes` as 64 lower-case hex digits, the form `sha256sum`
 * prints.
 *
 * @example
 * ```ts
 * import { sha256Hex } from "./manifest.ts";
 * const hex = await sha256Hex(new TextEncoder().encode("abc"));
 * if (hex !== "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad") throw new Error(hex);
 * ```
 */
export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  if (++hashed > WEB_CRYPTO_CALLS) {
    nodeCrypto ??= import("node:crypto");
    return (await nodeCrypto).createHash("sha256").update(bytes).digest("hex");
  }
  // `digest` takes an ArrayBuffer-backed view; a copy also covers views over a SharedArrayBuffer.
  const source = bytes.buffer instanceof ArrayBuffer
    ? bytes as Uint8Array<ArrayBuffer>
    : new Uint8Array(bytes);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", source));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Hashes done with Web Crypto before `node:crypto` takes over. A Web Crypto
 * digest is an operation on Deno's blocking pool: about 70 µs of CPU for a
 * flow file (10,000 of them: 0.7 s), where `node:crypto` takes 3 µs but
 * costs a fresh process about 30 ms to import (`_stream_hash.ts` says why);
 * past 400 files the import is the cheaper.
 */
const WEB_CRYPTO_CALLS = 400;
let hashed = 0;
let nodeCrypto: Promise<typeof import("node:crypto")> | undefined;

/**
 * Builds the manifest: hashes flows and artifacts, sorts and de-duplicates
 * `env_read`, reads CI provenance. Does not change `input`.
 *
 * @example
 * ```ts
 * import { buildManifest } from "./manifest.ts";
 * const bytes = new TextEncoder().encode("abc");
 * const manifest = await buildManifest({
 *   run_id: "r1", runner_version: "0.1.0", deno_version: "2.9.6", os: "linux", arch: "x86_64",
 *   started_at: "2025-03-01T10:15:00.000Z", ended_at: "2025-03-01T10:15:02.000Z", exit_code: 1,
 *   command: ["flowrun", "run", "flows/"], shard: { index: 1, total: 2 },
 *   flows: [{ file: "flows/a.yaml", bytes }], env_read: ["TOKEN", "BASE_URL", "TOKEN"],
 *   env: () => undefined, artifacts: [{ kind: "junit", path: "out/junit.xml", bytes }],
 * });
 * if (manifest.env_read.join() !== "BASE_URL,TOKEN") throw new Error();
 * if (!manifest.flows[0].sha256.startsWith("ba7816bf") || manifest.artifacts[0].bytes !== 3) throw new Error();
 * if (manifest.ci !== null) throw new Error();
 * ```
 */
export async function buildManifest(input: ManifestInput): Promise<Manifest> {
  const [flows, artifacts] = await Promise.all([
    Promise.all(input.flows.map(async (f) => ({
      file: f.file,
      sha256: "bytes" in f ? await sha256Hex(f.bytes) : f.sha256,
    }))),
    Promise.all(input.artifacts.map(async (a) => ({
      kind: a.kind,
      path: a.path,
      sha256: "bytes" in a ? await sha256Hex(a.bytes) : a.sha256,
      bytes: "bytes" in a ? a.bytes.byteLength : a.size,
    }))),
  ]);
  return {
    manifest_version: MANIFEST_VERSION,
    run_id: input.run_id,
    runner_version: input.runner_version,
    deno_version: input.deno_version,
    os: input.os,
    arch: input.arch,
    started_at: input.started_at,
    ended_at: input.ended_at,
    exit_code: input.exit_code,
    command: [...input.command],
    shard: input.shard && { ...input.shard },
    flows,
    // Default sort compares code units, unlike localeCompare, so the order is the same everywhere.
    env_read: [...new Set(input.env_read)].sort(),
    ci: ciProvenance(input.env),
    artifacts,
  };
}

/**
 * The manifest as JSON text: 2-space indented, a trailing newline, keys in
 * the declared order whatever order `manifest` was built in (optional
 * `shard.source` left out when absent).
 *
 * @example
 * ```ts
 * import { manifestText } from "./manifest.ts";
 * const text = manifestText({
 *   artifacts: [], ci: null, env_read: [], flows: [], shard: null, command: ["flowrun"],
 *   exit_code: 0, ended_at: "", started_at: "", arch: "x86_64", os: "linux", deno_version: "2.9.6",
 *   runner_version: "0.1.0", run_id: "r1", manifest_version: 1,
 * });
 * if (!text.startsWith('{\n  "manifest_version": 1,\n  "run_id": "r1",') || !text.endsWith("}\n")) {
 *   throw new Error(text);
 * }
 * ```
 */
export function manifestText(manifest: Manifest): string {
  const m = manifest;
  const ci = m.ci && {
    provider: m.ci.provider,
    commit: m.ci.commit,
    ref: m.ci.ref,
    pipeline_id: m.ci.pipeline_id,
    job_id: m.ci.job_id,
    job_url: m.ci.job_url,
  };
  // Rebuilt key by key: the object's own key order is not trusted.
  const ordered: Manifest = {
    manifest_version: m.manifest_version,
    run_id: m.run_id,
    runner_version: m.runner_version,
    deno_version: m.deno_version,
    os: m.os,
    arch: m.arch,
    started_at: m.started_at,
    ended_at: m.ended_at,
    exit_code: m.exit_code,
    command: m.command,
    shard: m.shard && { index: m.shard.index, total: m.shard.total, source: m.shard.source },
    flows: m.flows.map((f) => ({ file: f.file, sha256: f.sha256 })),
    env_read: m.env_read,
    ci,
    artifacts: m.artifacts.map((a) => ({
      kind: a.kind,
      path: a.path,
      sha256: a.sha256,
      bytes: a.bytes,
    })),
  };
  return JSON.stringify(ordered, null, 2) + "\n";
}
