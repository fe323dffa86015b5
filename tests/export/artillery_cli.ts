/**
 * Artillery itself, as the export tests run it: the installed 2.0.34 (from
 * the real servers' cache, never a dependency of flowrun), in a folder, its
 * environment only what the test gives, killed after 120 s.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";

/** What Artillery's run gave: its exit code, output and JSON report's counters and summaries. */
export interface ArtilleryRun {
  code: number;
  output: string;
  counters: Record<string, number>;
  summaries: Record<string, { count: number }>;
}

/** Artillery under `prefix` (its npm install) with `args` in `dir`, its environment only `env`. */
export function artillery(
  prefix: string,
  args: string[],
  dir: string,
  env: Record<string, string>,
): Promise<Deno.CommandOutput> {
  const child = new Deno.Command("node", {
    args: [`${prefix}/node_modules/artillery/bin/run`, ...args],
    cwd: dir,
    clearEnv: true,
    env: {
      ...env,
      PATH: Deno.env.get("PATH") ?? "",
      HOME: Deno.env.get("HOME") ?? "",
      ARTILLERY_DISABLE_TELEMETRY: "true",
    },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
  return child.output().finally(() => clearTimeout(timer));
}

/** `artillery run artillery.yml --output report.json` in `dir`, with `more` arguments, read back. */
export async function artilleryRun(
  prefix: string,
  dir: string,
  env: Record<string, string>,
  more: string[] = [],
): Promise<ArtilleryRun> {
  const args = ["run", "artillery.yml", "--output", "report.json", ...more];
  const done = await artillery(prefix, args, dir, env);
  const output = new TextDecoder().decode(done.stdout) + new TextDecoder().decode(done.stderr);
  const report = JSON.parse(await Deno.readTextFile(`${dir}/report.json`).catch(() => "{}"));
  return {
    code: done.code,
    output,
    counters: report.aggregate?.counters ?? {},
    summaries: report.aggregate?.summaries ?? {},
  };
}

/**
 * Exports the flow at `flowPath` (with `more` export options) for `users` virtual users over
 * one second into a temporary folder, asserts that none of `written` (files of the export) holds `secret`, and runs the
 * Artillery under `prefix` on it with `env` only; the folder is removed after.
 */
export async function exportAndRun(
  prefix: string,
  flowPath: string,
  users: number,
  env: Record<string, string>,
  secret: string,
  written: readonly string[],
  more: readonly string[] = [],
): Promise<ArtilleryRun> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-artillery-export-" });
  try {
    const args = ["export", "artillery", flowPath, "-o", dir, ...more];
    const exported = await runCli([...args, "--users", `${users}`, "--duration", "1s"], { env });
    assert.equal(exported.code, 0, exported.stderr);
    for (const name of written) {
      const text = await Deno.readTextFile(`${dir}/${name}`);
      assert.ok(!text.includes(secret), `${name} holds the token`);
    }
    return await artilleryRun(prefix, dir, env);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
