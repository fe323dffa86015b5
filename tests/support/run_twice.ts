/**
 * Loads a converted flow in process, with the files its conversion wrote
 * beside it, and runs it twice against a live app: a second run on the same
 * instance fails where a flow replays a recorded one-time value instead of
 * taking a fresh one. {@linkcode runPassesOn} runs one once.
 */
import assert from "node:assert/strict";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { runFlows } from "../../lib/run/flows.ts";
import type { RunResult } from "../../lib/model/result.ts";
import "./engines.ts";

/** A file the conversion wrote beside the flow (a placeholder upload, a body). */
export type Files = { path: string; text: string | Uint8Array<ArrayBuffer> }[];

/**
 * Asserts `yaml` (named `name` in messages) loads without problems with
 * `files` and `env`, and that two runs one after the other both pass.
 */
export async function runTwice(
  yaml: string,
  files: Files,
  env: (name: string) => string | undefined,
  name = "flow.yaml",
): Promise<void> {
  const loaded = loadFlow(yaml, name, {
    env,
    readFile: (path) => {
      const file = files.find((f) => f.path === path);
      if (!file) return { message: `no file ${path}` };
      return {
        bytes: typeof file.text === "string" ? new TextEncoder().encode(file.text) : file.text,
      };
    },
  });
  assert.deepEqual(loaded.problems, [], yaml);
  for (const run of ["first", "second"]) {
    const result = await runFlows([loaded.flow!], { env, runId: run, jobs: 1 });
    const failed = result.flows[0].steps.filter((s) => s.status !== "passed");
    assert.equal(
      result.status,
      "passed",
      `${run} run:\n${JSON.stringify(failed, null, 2)}\n${yaml}`,
    );
  }
}

/**
 * Asserts `yaml` (named `name` in messages) loads without problems with the base URL `base`
 * (`BASE_URL`), and that one run against it passes: the run.
 *
 * @example
 * ```ts ignore
 * import { runPassesOn } from "./run_twice.ts";
 * const run = await runPassesOn(yaml, "orders.yaml", fresh.url);
 * ```
 */
export async function runPassesOn(yaml: string, name: string, base: string): Promise<RunResult> {
  const env = (n: string) => n === "BASE_URL" ? base : undefined;
  const { flow, problems } = loadFlow(yaml, name, { env });
  assert.deepEqual(problems, []);
  const run = await runFlows([flow!], { runId: "r1", env });
  assert.equal(
    run.status,
    "passed",
    JSON.stringify(run.flows[0].steps.map((s) => [s.name, s.status, s.message])) + yaml,
  );
  return run;
}
