/**
 * Runs the flowrun CLI as a subprocess, exactly as a user or CI would, and
 * normalises the parts of its output that change between runs.
 */
import { RUNNER_PERMISSIONS, RUNNER_V8_FLAGS } from "../../scripts/permissions.ts";

const ROOT = new URL("../../", import.meta.url).pathname;

/** What a CLI run produced. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `deno run cli.ts <args>` with the permissions the runner ships with. */
export async function runCli(
  args: string[],
  options: { env?: Record<string, string>; cwd?: string } = {},
): Promise<CliRun> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      ...RUNNER_PERMISSIONS,
      ...RUNNER_V8_FLAGS,
      `${ROOT}cli.ts`,
      ...args,
    ],
    cwd: options.cwd ?? ROOT,
    // Deno's background update check would show up in tests that set HTTPS_PROXY.
    env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1", ...options.env },
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
 * Starts `deno run cli.ts <args>` as a child process, for tests that send it
 * signals or read its streams as they come; stdin is closed, colours are off.
 */
export function spawnCli(
  args: string[],
  options: { env?: Record<string, string>; stdout?: "piped" | "null"; stderr?: "piped" | "null" } =
    {},
): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", ...RUNNER_PERMISSIONS, ...RUNNER_V8_FLAGS, `${ROOT}cli.ts`, ...args],
    cwd: ROOT,
    // Deno's background update check would show up in tests that set HTTPS_PROXY.
    env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1", ...options.env },
    stdin: "null",
    stdout: options.stdout ?? "piped",
    stderr: options.stderr ?? "piped",
  }).spawn();
}

/** Replaces ports, timings and generated ids, which differ between runs, with fixed markers. */
export function normalise(text: string): string {
  return text
    .replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:PORT")
    // Ids the demo API generates for items and jobs.
    .replace(/\b(itm|job)_[0-9a-f]{12}\b/g, "$1_ID")
    .replace(/\b\d+(\.\d+)? ms\b/g, "N ms")
    .replace(/\b\d+\.\d\d s\b/g, "N ms");
}

/** The project root, with a trailing slash. */
export const root: string = ROOT;
