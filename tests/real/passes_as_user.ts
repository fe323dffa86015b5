/**
 * One run of a converted HAR flow as the user who recorded it runs it: the
 * base URL and the password they typed, nothing else asked (`runOnceAsUser`),
 * and every step passing (`passesAsUser`).
 *
 * @module
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { userEnv } from "../support/convert_apps.ts";
import { readReport } from "./measure.ts";

/** What one run as the user gave: the CLI's outcome, the report's steps, how many passed. */
export interface UserRun {
  run: Awaited<ReturnType<typeof runCli>>;
  steps: Awaited<ReturnType<typeof readReport>>["steps"];
  passed: number;
}

/**
 * Runs the flow at `flowPath` (its text `flow`) once on `origin` with what its header asks,
 * `password` for each password: only `BASE_URL` and `LOGIN_PASSWORD` may be asked. Says how many
 * steps passed as `WHAT LABEL: …` on stderr; the caller judges the outcome.
 *
 * @example
 * ```ts ignore
 * import { runOnceAsUser } from "./passes_as_user.ts";
 * const first = await runOnceAsUser("parse HAR", "secret", server.origin, flowPath, flow, "pw 1");
 * ```
 */
export async function runOnceAsUser(
  what: string,
  password: string,
  origin: string,
  flowPath: string,
  flow: string,
  label: string,
): Promise<UserRun> {
  const env = userEnv(flow, origin, (n) => /PASSWORD/.test(n) ? password : undefined);
  assert.deepEqual(Object.keys(env).sort(), ["BASE_URL", "LOGIN_PASSWORD"]);
  const report = `${flowPath}.${label.replaceAll(" ", "_")}.json`;
  const run = await runCli(["run", flowPath, "--report-json", report], { env });
  const { steps } = await readReport(report);
  const failed = steps.filter((s) => s.status !== "passed");
  console.error(
    `${what} ${label}: ${steps.length - failed.length} of ${steps.length} steps passed${
      failed.length ? `; failed: ${failed.map((s) => `${s.name} (${s.message})`).join(", ")}` : ""
    }`,
  );
  return { run, steps, passed: steps.length - failed.length };
}

/**
 * Runs the flow as {@link runOnceAsUser} does, and the run must pass.
 *
 * @example
 * ```ts ignore
 * import { passesAsUser } from "./passes_as_user.ts";
 * await passesAsUser("adminjs HAR", "secret", panel.origin, flowPath, flow, "pw 1");
 * ```
 */
export async function passesAsUser(
  what: string,
  password: string,
  origin: string,
  flowPath: string,
  flow: string,
  label: string,
): Promise<void> {
  const { run } = await runOnceAsUser(what, password, origin, flowPath, flow, label);
  assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
}
