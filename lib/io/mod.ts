/**
 * The I/O stage: the only library code that names `Deno.*`, so every other
 * stage stays pure and testable. It takes paths, bytes and text and gives
 * file contents (read only from regular files within a size limit), the
 * flow files under a folder, written artifacts (replaced atomically or
 * written through, with the exact bytes or a streamed hash for the
 * manifest), bytes set aside on disk, the flow cache's entries, the
 * environment, and the HTTP clients `fetch` is given (and whether one can be
 * built). Every failure is one plain sentence: an `InputFileError` for an
 * input, an `ArtifactWriteError` for an output, a `UsageError` for a check
 * made before anything is sent.
 *
 * One file per Deno API family, each under about 200 lines:
 * - `discover.ts` (`Deno.readDir`): flow files under the path arguments;
 * - `paths.ts` (`Deno.cwd`): paths as reports show them;
 * - `file_roots.ts` (`Deno.realPathSync`): the folders flows may read files from;
 * - `read.ts` (`Deno.stat`/`Deno.open`), `input_error.ts` (`Deno.errors`):
 *   guarded reads of inputs;
 * - `write.ts`, `stream_writer.ts` (`Deno.open`/`Deno.rename`),
 *   `artifact_error.ts`, `interrupt.ts`: artifacts;
 * - `preflight.ts` (`Deno.stat`/`Deno.realPath`): report paths checked up front;
 * - `byte_spill.ts` (`Deno.openSync`, `seekSync`): bytes set aside;
 * - `cache_dir.ts` (`Deno.readDirSync`/`Deno.rename`): the flow cache's disk side,
 *   `cache_secret.ts` its per-user sealing key, `ownership.ts` (`Deno.statSync`)
 *   whether a file or folder is the user's own;
 * - `near_file.ts` (`Deno.readDirSync`): the file beside a missing one that
 *   was probably meant;
 * - `env.ts` (`Deno.env`), `env_names.ts` (the names set, never values, for
 *   hints); `http_client.ts` (`Deno.createHttpClient`) and
 *   `client_check.ts`: the client pool and its settings checked;
 * - `scratch_buffer.ts`: one reused buffer for writers;
 * - `aws_credentials.ts` (through `read.ts`): AWS keys from the standard
 *   environment variables or a profile of the shared credentials file;
 * - `run_command.ts` (`Deno.Command`): a program run for its output (a
 *   bearer token's `command`), bounded in time and output.
 *
 * Files named `_name.ts` are helpers of this folder only. No module here
 * imports a `node:` builtin up front: it would start Deno's Node layer on
 * the way to the first request (`node:crypto` is imported only for a stream
 * past 1 MiB). Callers that load this stage lazily `import()` this module.
 *
 * @example
 * ```ts
 * import { readText, writeFileAtomic } from "./mod.ts";
 * const dir = await Deno.makeTempDir();
 * await writeFileAtomic(`${dir}/a.txt`, "hello");
 * if ((await readText(`${dir}/a.txt`)) !== "hello") throw new Error();
 * await Deno.remove(dir, { recursive: true });
 * ```
 *
 * @module
 */
export { displayPath } from "./paths.ts";
export { discoverFlowEntries, type FlowEntry } from "./discover.ts";
export { type FileRoots, fileRootsFor, outsideFileRoots } from "./file_roots.ts";
export { InputFileError } from "./input_error.ts";
export { readBytes, readBytesSync, type ReadOptions, readText } from "./read.ts";
export { ArtifactWriteError } from "./artifact_error.ts";
export { INTERRUPTED_WRITE_MS, type WriteOptions } from "./interrupt.ts";
export { appendText, writeFileAtomic, writeNewFile } from "./write.ts";
export { ensureWritable, refuseInputsAsOutputs } from "./preflight.ts";
export {
  openStreamWriter,
  type StreamWriter,
  type StreamWriterOptions,
  type WriteSummary,
} from "./stream_writer.ts";
export { ScratchBuffer } from "./scratch_buffer.ts";
export {
  AwsCredentialsError,
  findAwsCredentials,
  type FoundAwsCredentials,
  MAX_AWS_CREDENTIALS_BYTES,
  parseAwsProfiles,
} from "./aws_credentials.ts";
export { byteSpill, type ByteSpillOptions } from "./byte_spill.ts";
// The interface the spill implements, so this stage's documentation is whole.
export type { ByteSpill } from "../model/spill.ts";
export { type CacheWarning, type FlowCacheDir, flowCacheIn } from "./cache_dir.ts";
export { readEnv } from "./env.ts";
export { envNames } from "./env_names.ts";
export { nearFile } from "./near_file.ts";
export {
  type ClientOptions,
  closeHttpClients,
  httpClient,
  httpClientError,
} from "./http_client.ts";
export { type ClientNames, type ClientProblem, clientProblem } from "./client_check.ts";
export {
  CommandError,
  type CommandErrorCode,
  type CommandResult,
  runCommand,
  type RunCommandOptions,
} from "./run_command.ts";
