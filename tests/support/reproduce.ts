/**
 * The `reproduce:` lines a failed run prints under its failures, and running
 * one as a user would paste it into a shell, for the tests that check a
 * printed line really reruns what failed.
 *
 * @module
 */
import assert from "node:assert/strict";
import { dirname } from "node:path";
import { type CliRun, runCli } from "./cli.ts";
import { withFiles } from "./with_files.ts";

/**
 * The reproduce lines printed under failures, in order.
 *
 * @example
 * ```ts
 * import { reproduceLines } from "./reproduce.ts";
 * const run = { code: 1, stderr: "", stdout: "✘ f.yaml\n    reproduce: flowrun run f.yaml\n" };
 * if (reproduceLines(run)[0] !== "flowrun run f.yaml") throw new Error();
 * ```
 */
export function reproduceLines(run: CliRun): string[] {
  return [...run.stdout.matchAll(/^ {4}reproduce: (.*)$/gm)].map((m) => m[1]);
}

/** The shell a pasted line runs in. */
export interface PasteOptions {
  /** Variables the user has set, besides no colour and no update check. */
  env?: Record<string, string>;
  /** `PATH`; else this Deno's folder before the inherited `PATH`. */
  path?: string;
  /** Nothing of this process's environment is inherited. */
  clearEnv?: boolean;
}

/**
 * Runs `line` with `sh -c` in `cwd`, as a user would paste it.
 *
 * @example
 * ```ts
 * import { pasteInShell } from "./reproduce.ts";
 * const run = await pasteInShell("echo $GREETING; exit 3", "/", { env: { GREETING: "hi" } });
 * if (run.code !== 3 || run.stdout !== "hi\n") throw new Error(JSON.stringify(run));
 * ```
 */
export async function pasteInShell(
  line: string,
  cwd: string,
  options: PasteOptions = {},
): Promise<CliRun> {
  const path = options.path ?? `${dirname(Deno.execPath())}:${Deno.env.get("PATH") ?? ""}`;
  const output = await new Deno.Command("sh", {
    args: ["-c", line],
    cwd,
    env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1", PATH: path, ...options.env },
    ...(options.clearEnv ? { clearEnv: true } : {}),
    stdin: "null",
  }).output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

/**
 * The console's block for the failed flow of `file` (from its `✘` line to the blank line after),
 * timings left out: what a rerun of its reproduce line must print again.
 *
 * @example
 * ```ts
 * import { failedBlock } from "./reproduce.ts";
 * const stdout = "✔ a.yaml · ok\n✘ b.yaml · bad · 12 ms\n  ✘ call\n\nrun R1\n";
 * if (failedBlock({ code: 1, stdout, stderr: "" }, "b.yaml") !== "✘ b.yaml · bad · N ms\n  ✘ call") {
 *   throw new Error();
 * }
 * ```
 */
export function failedBlock(run: CliRun, file: string): string {
  const lines = run.stdout.split("\n");
  const start = lines.findIndex((l) => l.startsWith(`✘ ${file} · `));
  if (start === -1) return "";
  const end = lines.indexOf("", start);
  return lines.slice(start, end === -1 ? undefined : end).join("\n").replace(/\b\d+ ms\b/g, "N ms");
}

/** A case for {@linkcode rerunsAlike}. */
export interface RerunCase {
  /** Files to write in the working directory. */
  files: Record<string, string>;
  /** The arguments of the first run (after `run`). */
  args: string[];
  /** Environment of both runs. */
  env?: Record<string, string>;
  /** The file whose failure is reproduced. */
  file: string;
  /** Whether a reproduce line is the one of `file`. */
  pick: (line: string) => boolean;
  /** The console block the two runs must share; {@linkcode failedBlock} unless given. */
  block?: (run: CliRun, file: string) => string;
}

/** A failed run, its reproduce line pasted again, and the line. */
export interface Rerun {
  first: CliRun;
  again: CliRun;
  line: string;
}

/**
 * Runs `flowrun run <args>` in a temporary folder of `files`, which must
 * fail; pastes the reproduce line `pick` chooses into a shell in the same
 * folder, which must fail alike: the same console block for `file`.
 *
 * @example
 * ```ts
 * import { rerunsAlike } from "./reproduce.ts";
 * const flow = 'name: f\nsteps:\n  - name: call\n    request: {url: "http://127.0.0.1:9/"}\n' +
 *   "    assert: {status: 200}\n";
 * const { line } = await rerunsAlike({
 *   files: { "flow.yaml": flow },
 *   args: ["flow.yaml"],
 *   file: "flow.yaml",
 *   pick: (l) => l.includes(" run flow.yaml "),
 * });
 * if (!line.includes(" run flow.yaml ")) throw new Error(line);
 * ```
 */
export async function rerunsAlike(c: RerunCase): Promise<Rerun> {
  const block = c.block ?? failedBlock;
  return await withFiles(c.files, async (dir) => {
    const env = c.env ?? {};
    const first = await runCli(["run", ...c.args], { cwd: dir, env });
    assert.equal(first.code, 1, first.stdout + first.stderr);
    const line = reproduceLines(first).find(c.pick);
    assert.ok(line, `a reproduce line for ${c.file}:\n${first.stdout}`);
    const again = await pasteInShell(line, dir, { env });
    assert.equal(again.code, 1, `${line}\n${again.stdout}${again.stderr}`);
    const wanted = block(first, c.file);
    assert.match(wanted, /✘/, first.stdout);
    assert.equal(block(again, c.file), wanted, `${line}\n${again.stdout}`);
    return { first, again, line };
  });
}
