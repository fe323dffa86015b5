/**
 * `convert openapi` on two real LoopBack 4 applications published by the
 * LoopBack project (`@loopback/example-todo`, `@loopback/example-file-transfer`):
 * the document each serves at `/openapi.json` is fetched from one fresh
 * instance, converted with default options, and run as the summary prints
 * it, with only the variables it asks for, against another fresh instance.
 * Measured: the share of the document's operations that got a 2xx.
 * The goal is 90 %, asserted for each server.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import {
  accepted,
  convertAndRunAsPrinted,
  knownOnly,
  operationsOf,
  readReport,
} from "./measure.ts";
import { FILES, filesLaunch, TODO, todoLaunch } from "./loopback.ts";
import { type Launch, prepare, withInstance } from "./servers.ts";

const todo = await prepare([TODO]);
const files = await prepare([FILES]);

/** What one server measured. */
interface Measured {
  operations: number;
  accepted: number;
  refused: string[];
  invalidJson: boolean;
  flows: string;
}

/**
 * Fetches the document from instance A, converts it and runs the printed
 * command against instance B, and measures; prints the numbers and every
 * refused operation with what it got.
 */
async function measure(name: string, launch: Launch): Promise<Measured> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-real-openapi-" });
  try {
    const doc = await withInstance(launch, async (a) => {
      const response = await fetch(`${a.origin}/openapi.json`);
      assert.equal(response.status, 200);
      return await response.json();
    });
    await Deno.writeTextFile(`${dir}/openapi.json`, JSON.stringify(doc, null, 2));
    return await withInstance(launch, async (b) => {
      const trial = await convertAndRunAsPrinted(
        ["convert", "openapi", `${dir}/openapi.json`, "-o", `${dir}/flows`],
        `${dir}/report.json`,
        knownOnly({ BASE_URL: b.origin }),
      );
      assert.equal(trial.converted.code, 0, trial.converted.stderr);
      assert.ok(trial.report, `no report:\n${trial.run.stdout}\n${trial.run.stderr}`);
      const ops = operationsOf(doc);
      const result = accepted(ops, trial.report.steps);
      const refused = result.refused.map((op) => `${op.method} ${op.path}: ${op.got}`);
      const flows: string[] = [];
      for await (const entry of Deno.readDir(`${dir}/flows`)) {
        if (entry.name.endsWith(".yaml")) {
          flows.push(await Deno.readTextFile(`${dir}/flows/${entry.name}`));
        }
      }
      console.error(
        `${name}: ${result.accepted.length} of ${ops.length} operations accepted (2xx)` +
          (refused.length ? `; refused: ${refused.join("; ")}` : "") +
          (trial.report.invalidJson ? "; the JSON report was not valid JSON" : ""),
      );
      if (refused.length) console.error(trial.run.stdout.slice(0, 4000));
      return {
        operations: ops.length,
        accepted: result.accepted.length,
        refused,
        invalidJson: trial.report.invalidJson,
        flows: flows.join("\n"),
      };
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test({
  name:
    `real servers: LoopBack Todo's own OpenAPI document, converted and run, gets a 2xx on ≥ 90 % of its operations${todo.ignoredBecause}`,
  ignore: todo.ignoredBecause !== "",
  sanitizeResources: false,
  async fn() {
    const m = await measure("@loopback/example-todo", todoLaunch(todo.install!.prefix));
    assert.equal(m.operations, 8);
    assert.ok(m.accepted / m.operations >= 0.9, m.refused.join("\n"));
    // The document's example values are no credentials, and the flow writes none.
    assert.doesNotMatch(m.flows, /password|secret/i);
  },
});

Deno.test({
  name:
    `real servers: LoopBack file transfer's own OpenAPI document, converted and run, gets a 2xx on ≥ 90 % of its operations${files.ignoredBecause}`,
  ignore: files.ignoredBecause !== "",
  sanitizeResources: false,
  async fn() {
    const m = await measure("@loopback/example-file-transfer", filesLaunch(files.install!.prefix));
    assert.equal(m.operations, 3);
    // Goal met since 2026-11-26: the upload sends one file and GET /files/{filename} takes a
    // name from the listing (until then the placeholder "string": 404, 2 of 3).
    assert.ok(m.accepted / m.operations >= 0.9, m.refused.join("\n"));
  },
});

// Found here: the runner took `Access-Control-Allow-Credentials: true` (a header named like a
// credential) for a secret, so every `true` of the report's OpenAPI coverage was a bare `***`.
Deno.test({
  name:
    `real servers: a run's JSON report stays valid JSON against a server that sends Access-Control-Allow-Credentials: true${todo.ignoredBecause}`,
  ignore: todo.ignoredBecause !== "",
  sanitizeResources: false,
  async fn() {
    await withInstance(todoLaunch(todo.install!.prefix), async (server) => {
      const dir = await Deno.makeTempDir({ prefix: "flowrun-real-report-" });
      try {
        const doc = await (await fetch(`${server.origin}/openapi.json`)).text();
        await Deno.writeTextFile(`${dir}/openapi.json`, doc);
        await Deno.writeTextFile(
          `${dir}/count.yaml`,
          `name: count\nsteps:\n  - name: count\n    request:\n      method: GET\n      url: ${server.origin}/todos/count\n    assert:\n      status: 200\n`,
        );
        const run = await runCli([
          "run",
          `${dir}/count.yaml`,
          "--openapi",
          `${dir}/openapi.json`,
          "--report-json",
          `${dir}/report.json`,
        ]);
        assert.equal(run.code, 0, run.stdout + run.stderr);
        const read = await readReport(`${dir}/report.json`);
        assert.equal(read.steps.length, 1);
        assert.equal(read.invalidJson, false, await Deno.readTextFile(`${dir}/report.json`));
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    });
  },
});
