/**
 * The RealWorld project's own OpenAPI documents on a RealWorld backend, as
 * a new user runs them: the 3.1 document (`fixtures/openapi/inferred/conduit.yaml`,
 * 19 operations) or its 3.0 form (`conduit-3.0.yaml`), converted with
 * default options and run as the summary prints it, with only the variables
 * it asks for (`BASE_URL`), on a fresh instance, then run again on the same
 * instance. Shared by the tests of the three backends
 * (`conduit_openapi_test.ts`, `conduit_koa_openapi_test.ts`,
 * `conduit_moleculer_openapi_test.ts`).
 * `REAL_KEEP=DIR` keeps the flows and reports.
 *
 * @module
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import {
  accepted,
  convertAndRunAsPrinted,
  operationsOf,
  printedRun,
  readReport,
} from "./measure.ts";
import type { Instance } from "./servers.ts";
import { parse } from "yaml";

const DOCUMENTS = new URL("../fixtures/openapi/inferred/", import.meta.url).pathname;

/** A backend to measure on: its name, how to get a fresh one, what it must accept. */
export interface RealWorldBackend {
  label: string;
  with: <T>(fn: (instance: Instance) => Promise<T>) => Promise<T>;
  /** The operations each run must get a 2xx for. */
  floor: number;
  /** `METHOD /api/path: status` the backend answers whatever is sent: the only refusals allowed. */
  broken: string[];
}

/** The values of every `email`, `username` and `password` key the flows hold. */
function credentials(yaml: string): string[] {
  return [...yaml.matchAll(/^\s*(email|username|password):\s*(.+)$/gm)].map((m) => m[2].trim());
}

/**
 * Converts `name` into `dir` and runs it twice on one fresh backend;
 * asserts the floor, that every refusal is one of `broken`, and no literal
 * credential in the flows.
 */
export async function measureOpenApi(backend: RealWorldBackend, name: string, dir: string) {
  const doc = parse(await Deno.readTextFile(`${DOCUMENTS}${name}`)) as {
    paths?: Record<string, Record<string, unknown>>;
  };
  await Deno.copyFile(`${DOCUMENTS}${name}`, `${dir}/${name}`);
  const ops = operationsOf(doc).map((op) => ({ ...op, path: `/api${op.path}` }));
  assert.equal(ops.length, 19);
  await backend.with(async (instance) => {
    const trial = await convertAndRunAsPrinted(
      ["convert", "openapi", `${dir}/${name}`, "-o", `${dir}/flows`],
      `${dir}/report.json`,
      (variable, what) => {
        if (variable === "BASE_URL") return instance.origin;
        throw new Error(`the summary asks for ${variable} (${what}), which a new user cannot know`);
      },
    );
    assert.equal(trial.converted.code, 0, trial.converted.stderr);
    assert.deepEqual(Object.keys(trial.env), ["BASE_URL"]);
    assert.ok(trial.report, `no report:\n${trial.run.stdout}\n${trial.run.stderr}`);
    const again = `${dir}/report-again.json`;
    await runCli([...printedRun(trial.converted.stderr)!, "--report-json", again], {
      env: trial.env,
    });
    for (
      const [run, steps] of [[1, trial.report.steps], [2, (await readReport(again)).steps]] as const
    ) {
      const result = accepted(ops, steps);
      const refused = result.refused.map((op) => `${op.method} ${op.path}: ${op.got}`);
      console.error(
        `RealWorld (${backend.label}), ${name}, run ${run}: ${result.accepted.length} of ${ops.length} operations accepted (2xx); refused:\n  ${
          refused.join("\n  ")
        }`,
      );
      assert.ok(
        result.accepted.length >= backend.floor,
        `run ${run}: ${result.accepted.length} < ${backend.floor}`,
      );
      assert.deepEqual(refused.filter((r) => !backend.broken.some((b) => r.startsWith(b))), []);
    }
    const flows = [...Deno.readDirSync(`${dir}/flows`)].filter((e) => e.name.endsWith(".yaml"))
      .map((e) => Deno.readTextFileSync(`${dir}/flows/${e.name}`)).join("\n");
    // A capture's JSONPath (`username: $.json.user.username`) is where a value is read from.
    const literal = credentials(flows).filter((v) => !v.includes("${") && !v.startsWith("$."));
    assert.deepEqual(literal, [], "a literal credential in the flows");
  });
}
