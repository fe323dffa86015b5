/**
 * The `reproduce:` lines a failed run prints under its failures, and running
 * one as a user would paste it into a shell, for the tests that check a
 * printed line really reruns what failed.
 *
 * @module
 */
import { dirname } from "node:path";
import type { CliRun } from "./cli.ts";

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
