/**
 * Running a program and reading what it prints, bounded: the argument list
 * goes to the program as it is (no shell reads it), stdin is closed, stdout
 * is read up to a cap, only the end of stderr is kept, and past the deadline
 * the program is killed and its pipes closed. The program runs in a process
 * group of its own, killed whole when it ends or is stopped: a child it left
 * behind can neither hold the read open nor outlive flowrun. Deno API family: `Deno.Command`. A failure to start
 * is a {@linkcode CommandError} in plain words; a program that ran and
 * failed is a result with its exit code, for the caller to judge.
 *
 * @module
 */
import { plainReason } from "./_reason.ts";
import { ownWords, tell, type Told, told } from "../model/told.ts";

/**
 * How a program is run.
 *
 * @example
 * ```ts
 * import type { RunCommandOptions } from "./run_command.ts";
 * const options: RunCommandOptions = { timeoutMs: 30_000, maxStdoutBytes: 65_536, maxStderrBytes: 4096 };
 * if (options.signal !== undefined) throw new Error();
 * ```
 */
export interface RunCommandOptions {
  /** Killed (SIGKILL) after this many milliseconds. */
  timeoutMs: number;
  /** Killed when this aborts (the run's interrupt). */
  signal?: AbortSignal;
  /** The most stdout bytes read: more kills the program, a `CommandError` `command-output`. */
  maxStdoutBytes: number;
  /** The most stderr bytes kept: the last ones. */
  maxStderrBytes: number;
}

/**
 * A program that ran to its end.
 *
 * @example
 * ```ts
 * import type { CommandResult } from "./run_command.ts";
 * const r: CommandResult = { code: 0, stdout: "tok\n", stderr: "" };
 * if (r.stdout.trim() !== "tok") throw new Error();
 * ```
 */
export interface CommandResult {
  /** Its exit code (a signal's death is not 0). */
  code: number;
  /** What it printed, decoded as UTF-8. */
  stdout: string;
  /** The end of its stderr, decoded as UTF-8. */
  stderr: string;
}

/**
 * Why a program gave no result: the error's `code`.
 *
 * @example
 * ```ts
 * import type { CommandErrorCode } from "./run_command.ts";
 * const code: CommandErrorCode = "command-timeout";
 * if (!code.startsWith("command-")) throw new Error();
 * ```
 */
export type CommandErrorCode =
  | "command-not-found"
  | "command-not-permitted"
  | "command-start"
  | "command-timeout"
  | "command-output"
  | "command-interrupted";

/**
 * A program that could not be started, ran too long, printed too much, or
 * was interrupted. Its message names the program, never its arguments.
 *
 * @example
 * ```ts
 * import { CommandError, runCommand } from "./run_command.ts";
 * const error = new CommandError("command-timeout", "x", "The program \"x\" ran longer than 1 s.");
 * if (error.program !== "x" || !(error instanceof Error)) throw new Error();
 * const missing = await runCommand(["/no/such/program"], { timeoutMs: 1000, maxStdoutBytes: 1, maxStderrBytes: 1 })
 *   .catch((e) => e);
 * if (!(missing instanceof CommandError) || missing.reason?.words[0] !== "was not found (not on PATH, nor a file at that path)") throw missing;
 * ```
 */
export class CommandError extends Error {
  /** What went wrong, for the caller's wording. */
  readonly code: CommandErrorCode;
  /** The program as named. */
  readonly program: string;
  /** The stderr it printed before it was stopped (its end). */
  readonly stderr: string;
  /**
   * What befell the program, as a clause after its name (`was not found …`): flowrun's words and
   * the values it quotes (the runtime's reason), so a caller's message masks the values only.
   */
  readonly reason: Told | undefined;
  /** A failure to run `program`, said in `message` (and, after the program's name, `reason`). */
  constructor(
    code: CommandErrorCode,
    program: string,
    message: string,
    stderr = "",
    reason?: Told,
  ) {
    super(message);
    this.name = "CommandError";
    this.code = code;
    this.program = program;
    this.stderr = stderr;
    this.reason = reason;
  }
}

/**
 * Runs `argv[0]` with the rest as its arguments, in the working directory,
 * with the process's environment.
 *
 * @example
 * ```ts
 * import { runCommand } from "./run_command.ts";
 * const r = await runCommand([Deno.execPath(), "eval", "console.log('tok'); console.error('note')"], {
 *   timeoutMs: 10_000, maxStdoutBytes: 1024, maxStderrBytes: 1024,
 * });
 * if (r.code !== 0 || r.stdout !== "tok\n" || r.stderr !== "note\n") throw new Error(JSON.stringify(r));
 * ```
 */
export async function runCommand(
  argv: readonly string[],
  options: RunCommandOptions,
): Promise<CommandResult> {
  const program = argv[0];
  const child = spawn(argv);
  const stop = { why: undefined as CommandErrorCode | undefined };
  const readers = [child.stdout.getReader(), child.stderr.getReader()];
  const kill = (why: CommandErrorCode) => {
    stop.why ??= why;
    endGroup(child);
    // A child it started may hold the pipes open: stop reading them.
    for (const reader of readers) reader.cancel().catch(() => {});
  };
  // What it left running in the background (`sh -c "…; sleep 100 &"`) ends with it, and so
  // cannot hold its pipes open or outlive flowrun.
  child.status.then(() => endGroup(child), () => {});
  const timer = setTimeout(() => kill("command-timeout"), options.timeoutMs);
  const onAbort = () => kill("command-interrupted");
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (options.signal?.aborted) onAbort();
  try {
    const [stdout, stderr] = await Promise.all([
      readHead(readers[0], options.maxStdoutBytes, () => kill("command-output")),
      readTail(readers[1], options.maxStderrBytes),
    ]);
    const status = await child.status;
    const decoded = { stdout: decode(stdout), stderr: decode(stderr) };
    if (stop.why) throw stopped(stop.why, program, options, decoded.stderr);
    return { code: status.code, ...decoded };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", onAbort);
  }
}

/** A process group of its own is how the children a program starts are found and ended. */
const OWN_GROUP = Deno.build.os !== "windows";

/** Kills the program and every process of its group (on Windows, the program). */
function endGroup(child: Deno.ChildProcess): void {
  try {
    if (OWN_GROUP) Deno.kill(-child.pid, "SIGKILL");
    else child.kill("SIGKILL");
  } catch { /* they have ended */ }
}

/** The child, or a `CommandError` saying why it could not start. */
function spawn(argv: readonly string[]): Deno.ChildProcess {
  const program = argv[0];
  try {
    return new Deno.Command(program, {
      args: argv.slice(1),
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      // Its own session and process group (setsid), killed whole.
      detached: OWN_GROUP,
    }).spawn();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) {
      throw failure("command-not-found", program, ownWords(NOT_FOUND));
    }
    if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
      throw failure("command-not-permitted", program, ownWords(NOT_PERMITTED));
    }
    throw failure("command-start", program, told`could not be started: ${plainReason(error)}`);
  }
}

const NOT_FOUND = "was not found (not on PATH, nor a file at that path)";
const NOT_PERMITTED = "may not be run: this process lacks Deno's permission to run it";

/** `The program "<program>" <reason>.`, the reason kept told. */
function failure(code: CommandErrorCode, program: string, reason: Told): CommandError {
  return new CommandError(code, program, `The program "${program}" ${tell(reason)}.`, "", reason);
}

/** Why a program was stopped, in words. */
function stopped(
  why: CommandErrorCode,
  program: string,
  options: RunCommandOptions,
  stderr: string,
): CommandError {
  const said = {
    "command-timeout": `ran longer than ${options.timeoutMs} ms and was killed`,
    "command-output": `printed more than ${options.maxStdoutBytes / 1024} KiB and was killed`,
    "command-interrupted": "was killed: the run was interrupted",
  } as Record<CommandErrorCode, string>;
  const reason = ownWords(said[why]);
  return new CommandError(why, program, `The program "${program}" ${said[why]}.`, stderr, reason);
}

/** Up to `max` bytes; past them `over` is called and the read ends. */
async function readHead(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  max: number,
  over: () => void,
): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
    if (done || !value) return chunks;
    size += value.length;
    if (size > max) {
      over();
      return chunks;
    }
    chunks.push(value);
  }
}

/** The last `max` bytes, read to the end (a full pipe would stop the program). */
async function readTail(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  max: number,
): Promise<Uint8Array[]> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
    if (done || !value) break;
    chunks.push(value);
    size += value.length;
    while (chunks.length > 1 && size - chunks[0].length >= max) size -= chunks.shift()!.length;
  }
  const all = concat(chunks);
  return [all.subarray(Math.max(0, all.length - max))];
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

function decode(chunks: Uint8Array[]): string {
  return new TextDecoder().decode(concat(chunks));
}
