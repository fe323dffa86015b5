/**
 * `convert openapi` on ARA Records Ansible 1.5.8's REST API (Debian's `ara-server`, Django REST
 * framework, started by ara.ts on a fresh SQLite database): the OpenAPI 3.0 document its
 * framework makes of its API (50 operations on labels, playbooks, plays, tasks, hosts, latest
 * hosts, results, files and records; no security scheme: ARA has no authentication by default)
 * is converted with default options and run as the summary prints it, with only the variables
 * it asks for (`BASE_URL`), on a fresh instance, then again on the same instance. Its shapes:
 * sibling collections whose creates name their parents by id in the body (`POST /results` with
 * `{playbook, play, task, host}`), and a server that deletes what was made from an item with
 * it. Measured: the operations that got a 2xx. `REAL_KEEP=DIR` keeps the flows and the reports.
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
import { araDocument, araMissing, withAra } from "./ara.ts";
import { realTest, start } from "./servers.ts";

const missing = araMissing();

/**
 * Accepted on 2026-11-29: 44 before that day's fix (the playbook's DELETE ran first, as the
 * document lists it, and the server deleted the plays, tasks, hosts, results, files and records
 * made from it: their six DELETEs answered 404); 50 since an item is deleted before what its
 * create read (`tests/convert/openapi_dependent_delete_test.ts`).
 */
const FLOOR = 50;

realTest(
  `ARA's OpenAPI document, converted and run on a fresh instance, gets a 2xx on at least ${FLOOR} of its 50 operations, twice`,
  missing,
  async (dir) => {
    await withAra(start, async (b) => {
      const text = await araDocument(b.dir);
      const doc = JSON.parse(text);
      assert.equal(doc.openapi, "3.0.2");
      const ops = operationsOf(doc);
      assert.equal(ops.length, 50);
      await Deno.writeTextFile(`${dir}/openapi.json`, text);
      const trial = await openApiTrial(dir, b.origin);
      const first = acceptedSaid(`ARA 1.5.8`, ops, trial.report.steps);
      assert.ok(first.accepted.length >= FLOOR, trial.run.stdout.slice(0, 6000));
      // A second run on the same instance gets as far: its items are its own.
      const again = `${dir}/report-again.json`;
      await runCli([...printedRun(trial.converted.stderr)!, "--report-json", again], {
        env: trial.env,
      });
      const second = accepted(ops, (await readReport(again)).steps);
      assert.equal(second.accepted.length, first.accepted.length, "the second run");
    });
  },
);
