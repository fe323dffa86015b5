/**
 * `convert openapi` on recon-ng 5.1.2's web API (Debian's `recon-ng`, Flask, started with its
 * Redis by recon.ts): the Swagger 2.0 document it serves (flasgger, `/apispec_1.json`; 15
 * operations on tasks, modules, workspaces, reports, tables and exports, no security scheme: it
 * has no authentication) is converted with default options and run as the summary prints it,
 * with only the variables it asks for (`BASE_URL`), on a fresh instance, then again on the same
 * instance. Its shapes: items nothing creates, each addressed by the first of its listing (a
 * module's name holds a slash), and a task made from a body that names a module only in the
 * body's description ("the path of the module to run"). Measured: the operations that got a
 * 2xx. `REAL_KEEP=DIR` keeps the flows and the reports.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import {
  accepted,
  acceptedSaid,
  openApiTrial,
  operationsOf,
  printedRun,
  readReport,
} from "./measure.ts";
import { RECON_DOCUMENT, RECON_MODULE, reconMissing, withRecon } from "./recon.ts";
import { realTest, start } from "./servers.ts";

const missing = reconMissing();

/**
 * Accepted on 2026-11-27: 13 before that day's fix (the task's create sent the type's sample
 * `{"path": "string"}`, a module that does not exist, 404, so the task's read had no task; with
 * no module installed, 11: the module's read and update had no module to address); 15 since a
 * body property the body's description says names an item of a listed noun takes the listing's
 * first item (`tests/convert/openapi_body_listed_test.ts`).
 */
const FLOOR = 15;

realTest(
  `recon-ng's own Swagger 2.0 document, converted and run on a fresh instance, gets a 2xx on at least ${FLOOR} of its 15 operations, twice`,
  missing,
  async (dir) => {
    await withRecon(start, async (b) => {
      const response = await fetch(`${b.origin}${RECON_DOCUMENT}`);
      assert.equal(response.status, 200);
      const text = await response.text();
      const doc = JSON.parse(text);
      assert.equal(doc.swagger, "2.0");
      assert.equal(doc.securityDefinitions, undefined, "the document now declares its security");
      const ops = operationsOf(doc);
      assert.equal(ops.length, 15);
      await Deno.writeTextFile(`${dir}/openapi.json`, text);
      const trial = await openApiTrial(dir, b.origin);
      const first = acceptedSaid(`recon-ng 5.1.2`, ops, trial.report.steps);
      assert.ok(first.accepted.length >= FLOOR, trial.run.stdout.slice(0, 6000));
      // A second run on the same instance gets as far: its task is its own.
      const again = `${dir}/report-again.json`;
      await runCli([...printedRun(trial.converted.stderr)!, "--report-json", again], {
        env: trial.env,
      });
      const second = accepted(ops, (await readReport(again)).steps);
      assert.equal(second.accepted.length, first.accepted.length, "the second run");
      // Nothing of this instance is written in the flows: the module is read from its listing.
      const flows = [...Deno.readDirSync(`${dir}/flows`)].filter((e) => e.name.endsWith(".yaml"))
        .map((e) => Deno.readTextFileSync(`${dir}/flows/${e.name}`)).join("\n");
      assert.ok(!flows.includes(RECON_MODULE) && !flows.includes(b.origin), "a literal value");
    });
  },
);
