/**
 * `convert openapi` on Prometheus Alertmanager 0.25 (Debian's `prometheus-alertmanager`, Go,
 * started by alertmanager.ts): the Swagger 2.0 document of its v2 API (9 operations under the
 * `basePath` `/api/v2/`, no security scheme; as Debian's source package embeds it) is
 * converted with default options and run as the summary prints it, with only the variables it
 * asks for (`BASE_URL`), on a fresh instance, then again on the same instance. Its shapes: a
 * silence whose `startsAt` and `endsAt` must be ordered and end in the future, whose
 * `silenceID` the create answers and the read and the delete address, and alerts posted as a
 * list whose `labels` map must hold a pair. Measured: the operations that got a 2xx.
 * `REAL_KEEP=DIR` keeps the flows and the reports.
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
import { alertmanagerDocument, alertmanagerMissing, withAlertmanager } from "./alertmanager.ts";
import { realTest, start } from "./servers.ts";

const missing = alertmanagerMissing();

/**
 * Accepted on 2026-11-26: 5 before that day's fixes (the silence's times were the format sample
 * `2024-01-01T00:00:00Z`, "start time must be before end time", so its read and delete had no
 * silence; the alerts' `labels` were `{}`, "at least one label pair required"); 9 since a
 * window's times are the run's (`openapi_time_window_test.ts`) and a map holds an entry
 * (`openapi_map_entry_test.ts`).
 */
const FLOOR = 9;

realTest(
  `Alertmanager's own Swagger 2.0 document, converted and run on a fresh instance, gets a 2xx on at least ${FLOOR} of its 9 operations, twice`,
  missing,
  async (dir) => {
    const text = await alertmanagerDocument();
    const doc = JSON.parse(text);
    assert.equal(doc.swagger, "2.0");
    const ops = operationsOf(doc).map((op) => ({ ...op, path: `/api/v2${op.path}` }));
    assert.equal(ops.length, 9);
    await Deno.writeTextFile(`${dir}/openapi.json`, text);
    await withAlertmanager(start, async (b) => {
      const trial = await openApiTrial(dir, b.origin);
      const first = acceptedSaid(`alertmanager 0.25`, ops, trial.report.steps);
      assert.ok(first.accepted.length >= FLOOR, trial.run.stdout.slice(0, 6000));
      // A second run on the same instance gets as far: its silence is its own, made and deleted.
      const again = `${dir}/report-again.json`;
      await runCli([...printedRun(trial.converted.stderr)!, "--report-json", again], {
        env: trial.env,
      });
      const second = accepted(ops, (await readReport(again)).steps);
      assert.equal(second.accepted.length, first.accepted.length, "the second run");
      // Each run deleted the silence it made: none is left active.
      const silences = await (await fetch(`${b.origin}/api/v2/silences`)).json();
      const active = silences.filter((s: { status: { state: string } }) =>
        s.status.state !== "expired"
      );
      assert.deepEqual(active, []);
    });
  },
);
