/**
 * `convert openapi` on Jupyter Server 1.23 (Debian's `python3-jupyter-server`
 * with `python3-ipykernel`, started by jupyter.ts): the Swagger 2.0 document
 * it serves (`/api/spec.yaml`, 29 operations: contents at
 * `/api/contents/{path}`, checkpoints, sessions, kernels, kernelspecs,
 * config sections, terminals, status) is fetched from one fresh instance,
 * converted with default options, and run as the summary prints it on
 * another fresh instance, with only the variables it asks for (`BASE_URL`).
 *
 * The document declares no security at all, yet every `/api/…` call but
 * the version needs the token the server was started with (403 without).
 * So the summary cannot ask for it, and the user does what flowrun's docs
 * say for a run's credentials: an auth file (`--auth-file`), kept outside
 * the flows' folder, that sends `Authorization: token ${ENV.JUPYTER_TOKEN}`,
 * and the token in that variable. Nothing else is added.
 *
 * Measured: the operations that got a 2xx, and again on a second run on the
 * same instance (what the suite makes is the run's own). Each refused
 * operation is one the document gives no way to make pass, named with why
 * (docs/real-servers.md); any other refusal fails the test. `REAL_KEEP=DIR`
 * keeps the document, the flows and the run's reports.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import {
  accepted,
  acceptedSaid,
  askedVariables,
  operationsOf,
  printedRun,
  readReport,
} from "./measure.ts";
import { runCli } from "../support/cli.ts";
import { JUPYTER_DOCUMENT, JUPYTER_TOKEN, jupyterMissing, withJupyter } from "./jupyter.ts";
import { realTest, start } from "./servers.ts";

const missing = jupyterMissing();

/**
 * The operations no suite made from this document alone gets a 2xx for on
 * Jupyter Server 1.23.3, what each got ("never": never sent), and why.
 */
const DOCUMENT_GAPS: Record<string, string> = {
  // "A POST to /api/contents/path creates a New untitled, empty file or directory" in the folder
  // {path}; the only {path} the suite has is the file its PUT made ("Cannot POST to files, use PUT
  // instead"), and the document names no folder.
  "POST /api/contents/{path}": "400",
};

/**
 * Accepted on 2026-11-26: 28 (9 before that day's fixes: the kernel's create sent a made-up kernel
 * spec name, a terminal's id was a placeholder, the session's create sent `{}`, the files' {path}
 * was read from a session's answer, their PUT sent `{}` and their rename renamed the file away).
 */
const FLOOR = 28;

/** The auth file the user writes: the token they started the server with, from the environment. */
const AUTH_FILE =
  'auth:\n  api_key:\n    name: Authorization\n    value: "token ${ENV.JUPYTER_TOKEN}"\n';

realTest(
  `Jupyter Server's own Swagger 2.0 document, converted and run on a fresh instance, gets a 2xx on at least ${FLOOR} of its 29 operations`,
  missing,
  async (dir) => {
    const text = await withJupyter(start, async (a) => {
      const response = await fetch(`${a.origin}${JUPYTER_DOCUMENT}`, {
        headers: { Authorization: `token ${JUPYTER_TOKEN}` },
      });
      assert.equal(response.status, 200);
      return await response.text();
    });
    const doc = parse(text);
    assert.equal(doc.swagger, "2.0");
    assert.equal(doc.securityDefinitions, undefined, "the document now declares its security");
    await Deno.writeTextFile(`${dir}/jupyter.yaml`, text);
    await Deno.writeTextFile(`${dir}/auth.yaml`, AUTH_FILE);
    const converted = await runCli([
      "convert",
      "openapi",
      `${dir}/jupyter.yaml`,
      "-o",
      `${dir}/flows`,
    ]);
    assert.equal(converted.code, 0, converted.stderr);
    // Only the origin: the document names no credential.
    assert.deepEqual([...askedVariables(converted.stderr).keys()], ["BASE_URL"]);
    const printed = printedRun(converted.stderr);
    assert.ok(printed, converted.stderr);
    const args = [...printed, "--auth-file", `${dir}/auth.yaml`];
    await withJupyter(start, async (b) => {
      const env = { BASE_URL: b.origin, JUPYTER_TOKEN };
      const run = await runCli([...args, "--report-json", `${dir}/report.json`], { env });
      const ops = operationsOf(doc);
      const result = acceptedSaid(
        `jupyter-server 1.23`,
        ops,
        (await readReport(`${dir}/report.json`)).steps,
      );
      assert.equal(ops.length, 29);
      assert.ok(result.accepted.length >= FLOOR, `${result.accepted.length} < ${FLOOR}`);
      const refused = Object.fromEntries(
        result.refused.map((op) => [`${op.method} ${op.path}`, op.got.split(" ")[0]]),
      );
      assert.deepEqual(refused, DOCUMENT_GAPS, run.stdout.slice(0, 6000));
      // A second run on the same server gets as far: its files, sessions and kernels are its own.
      const again = `${dir}/report-again.json`;
      await runCli([...args, "--report-json", again], { env });
      const second = accepted(ops, (await readReport(again)).steps);
      assert.equal(second.accepted.length, result.accepted.length, "the second run");
      // No literal secret: the token is in the auth file's expression only, and masked.
      const flows = [...Deno.readDirSync(`${dir}/flows`)].filter((e) => e.name.endsWith(".yaml"))
        .map((e) => Deno.readTextFileSync(`${dir}/flows/${e.name}`)).join("\n");
      for (const out of [flows, run.stdout, await Deno.readTextFile(`${dir}/report.json`)]) {
        assert.ok(!out.includes(JUPYTER_TOKEN), "a literal token");
      }
    });
  },
);
