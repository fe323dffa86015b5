/**
 * An exported processor run without Artillery: `flowrun export artillery`
 * of a flow into a temporary folder, then tests/fixtures/export/drive_processor.cjs
 * calls the scenario's `function:` items in order for one virtual user, as
 * Artillery's HTTP engine does, with grpc-js, proto-loader and protobufjs
 * from Artillery's install (NODE_PATH), as the processor finds them there
 * under Artillery. Killed after 60 s; the folder is removed after.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { runCli } from "../support/cli.ts";

const FIXTURES = new URL("../fixtures/export/", import.meta.url).pathname;

/** What the driven user did: the driver's JSON line and everything it printed. */
export interface Driven {
  // deno-lint-ignore no-explicit-any
  got: any;
  stdout: string;
}

/**
 * Exports `flow` (a file under tests/fixtures/export/, or an absolute path) with `args`, and drives its items in
 * Node with `env`, the modules from the Artillery installed under `prefix`.
 */
export async function drive(
  prefix: string,
  flow: string,
  env: Record<string, string>,
  args: string[] = [],
): Promise<Driven> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-processor-drive-" });
  try {
    const exported = await runCli(
      [
        "export",
        "artillery",
        flow.startsWith("/") ? flow : `${FIXTURES}${flow}`,
        "-o",
        dir,
        ...args,
      ],
      { env },
    );
    assert.equal(exported.code, 0, exported.stderr);
    // deno-lint-ignore no-explicit-any
    const script: any = parse(await Deno.readTextFile(`${dir}/artillery.yml`));
    // Artillery's own requests are not the processor's: only its function items are called.
    const names = script.scenarios[0].flow.map((item: { function?: string }) => item.function)
      .filter(Boolean);
    const child = new Deno.Command("node", {
      args: [`${FIXTURES}drive_processor.cjs`, `${dir}/flowrun-processor.js`, ...names],
      clearEnv: true,
      env: { ...env, PATH: Deno.env.get("PATH") ?? "", NODE_PATH: `${prefix}/node_modules` },
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
    const driven = await child.output().finally(() => clearTimeout(timer));
    const stdout = new TextDecoder().decode(driven.stdout);
    assert.equal(driven.code, 0, new TextDecoder().decode(driven.stderr));
    return { got: JSON.parse(stdout.trim().split("\n").at(-1)!), stdout };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
