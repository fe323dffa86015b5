/**
 * A document converted by `flowrun convert openapi` into a temporary folder
 * and its suite run as the summary prints it (`Run: flowrun …`) with the
 * variables a user who has an account sets (the base URL, the login's
 * identity and password) and a JSON report: the shape of the tests of a
 * login the suite cannot register for. `convertAndRunSuite`
 * (openapi_suite.ts) is the same with `BASE_URL` only.
 *
 * @module
 */
import assert from "node:assert/strict";
import { type CliRun, runCli } from "./cli.ts";
import type { StandIn } from "./openapi_suite.ts";

/** One step of the run's report. */
export interface ReportedStep {
  name: string;
  status: string;
}

/** What the conversion and its run left. */
export interface LoginRun {
  /** The conversion's summary. */
  summary: string;
  /** The flows' texts by file name. */
  flows: Map<string, string>;
  run: CliRun;
  /** The JSON report's text, as written (secrets masked). */
  report: string;
  /** Every step of the report, flow after flow. */
  steps: ReportedStep[];
}

/**
 * Writes `document`, converts it, and runs the printed command once against
 * `server` (which it closes) with `env(server.base)` and `--report-json`.
 * The conversion must succeed and print a command; the run's outcome is the
 * caller's to judge.
 *
 * @example
 * ```ts
 * import { convertAndRunAsUser } from "./openapi_login_run.ts";
 * if (typeof convertAndRunAsUser !== "function") throw new Error();
 * ```
 */
export async function convertAndRunAsUser(
  document: unknown,
  server: StandIn,
  env: (base: string) => Record<string, string>,
): Promise<LoginRun> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-openapi-login-" });
  try {
    await Deno.writeTextFile(`${dir}/api.json`, JSON.stringify(document));
    const converted = await runCli(["convert", "openapi", `${dir}/api.json`, "-o", `${dir}/flows`]);
    assert.equal(converted.code, 0, converted.stderr);
    const line = /^Run: flowrun (.*)$/m.exec(converted.stderr)?.[1];
    assert.ok(line, converted.stderr);
    const reportPath = `${dir}/report.json`;
    const run = await runCli([...line.split(" "), "--report-json", reportPath], {
      env: env(server.base),
    });
    const flows = new Map<string, string>();
    for (const entry of Deno.readDirSync(`${dir}/flows`)) {
      if (entry.name.endsWith(".yaml")) {
        flows.set(entry.name, Deno.readTextFileSync(`${dir}/flows/${entry.name}`));
      }
    }
    const report = await Deno.readTextFile(reportPath).catch(() => "");
    const parsed: { flows?: { steps: ReportedStep[] }[] } = report ? JSON.parse(report) : {};
    const steps = (parsed.flows ?? []).flatMap((f) =>
      f.steps.map(({ name, status }) => ({ name, status }))
    );
    return { summary: converted.stderr, flows, run, report, steps };
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
}
