/**
 * `convert openapi` on the RealWorld project's own OpenAPI documents against
 * a real RealWorld backend (conduit.ts; issue 52's case): the 3.1 document
 * (`fixtures/openapi/inferred/conduit.yaml`, the project's `api/openapi.yml`,
 * 19 operations) and its 3.0 form (`conduit-3.0.yaml`), each converted with
 * default options and run as the summary prints it, with only the variables
 * it asks for (`BASE_URL`), on a fresh instance, then run again on the same
 * instance (what a user does next: the accounts and articles are the run's
 * own). Measured: the operations that got a 2xx on each run; today's count
 * is the floor. No flow holds a credential: every email, username and
 * password is made per run. `REAL_KEEP=DIR` keeps the flows and reports.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { conduitPackages, withConduit } from "./conduit.ts";
import {
  accepted,
  convertAndRunAsPrinted,
  operationsOf,
  printedRun,
  readReport,
} from "./measure.ts";
import { prepare, start } from "./servers.ts";
import { postgresMissing } from "./unleash.ts";
import { parse } from "yaml";

const postgres = postgresMissing();
const conduit = postgres ? { ignoredBecause: postgres } : await prepare(conduitPackages());

const DOCUMENTS = new URL("../fixtures/openapi/inferred/", import.meta.url).pathname;

/**
 * The operations accepted on 2026-11-26, on each run: all 19 of both documents (17 of the 3.1, 16
 * of the 3.0 before that day's fixes: an update of a required member sent `{}`; the 3.0's
 * `profile` and `Profile` were two flows, so the unfollow ran where nothing was followed). A second
 * run also needs few sign-ups and logins: the backend allows 20 per address per 15 minutes
 * (`express-rate-limit` in its users router), and each flow signed up and logged in (the 3.0's
 * second run got 429 on its last logins: 17); a flow that does not test the login now reads the
 * token its sign-up answers.
 */
const FLOOR = 19;

/** The values of every `email`, `username` and `password` key the flows hold, with where. */
function credentials(yaml: string): string[] {
  return [...yaml.matchAll(/^\s*(email|username|password):\s*(.+)$/gm)].map((m) => m[2].trim());
}

/** Converts `name` and runs it twice on one fresh backend; asserts the floor and no literal credential. */
async function measure(name: string, dir: string) {
  const doc = parse(await Deno.readTextFile(`${DOCUMENTS}${name}`)) as {
    paths?: Record<string, Record<string, unknown>>;
  };
  await Deno.copyFile(`${DOCUMENTS}${name}`, `${dir}/${name}`);
  const ops = operationsOf(doc).map((op) => ({ ...op, path: `/api${op.path}` }));
  assert.equal(ops.length, 19);
  await withConduit(conduit.install!.prefix, start, async (backend) => {
    const trial = await convertAndRunAsPrinted(
      ["convert", "openapi", `${dir}/${name}`, "-o", `${dir}/flows`],
      `${dir}/report.json`,
      (variable, what) => {
        if (variable === "BASE_URL") return backend.origin;
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
      console.error(
        `RealWorld backend, ${name}, run ${run}: ${result.accepted.length} of ${ops.length} operations accepted (2xx); refused:\n  ${
          result.refused.map((op) => `${op.method} ${op.path}: ${op.got}`).join("\n  ")
        }`,
      );
      assert.ok(
        result.accepted.length >= FLOOR,
        `run ${run}: ${result.accepted.length} < ${FLOOR}`,
      );
    }
    const flows = [...Deno.readDirSync(`${dir}/flows`)].filter((e) => e.name.endsWith(".yaml"))
      .map((e) => Deno.readTextFileSync(`${dir}/flows/${e.name}`)).join("\n");
    // A capture's JSONPath (`username: $.json.user.username`) is where a value is read from.
    const literal = credentials(flows).filter((v) => !v.includes("${") && !v.startsWith("$."));
    assert.deepEqual(literal, [], "a literal credential in the flows");
  });
}

const real = (name: string, fn: (dir: string) => Promise<void>) =>
  Deno.test({
    name: `real servers: ${name}${conduit.ignoredBecause}`,
    ignore: conduit.ignoredBecause !== "",
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const keep = Deno.env.get("REAL_KEEP");
      if (keep) await Deno.mkdir(keep, { recursive: true });
      const dir = await Deno.makeTempDir({ prefix: "flowrun-real-conduit-openapi-", dir: keep });
      try {
        await fn(dir);
      } finally {
        if (keep) console.error(`kept in ${dir}`);
        else await Deno.remove(dir, { recursive: true });
      }
    },
  });

real(
  `the RealWorld project's OpenAPI 3.1 document, converted and run twice on a real RealWorld backend, gets a 2xx on all ${FLOOR} of its operations each run, with no literal credential`,
  (dir) => measure("conduit.yaml", dir),
);

real(
  `the RealWorld project's OpenAPI 3.0 document, converted and run twice on a real RealWorld backend, gets a 2xx on all ${FLOOR} of its operations each run, with no literal credential`,
  (dir) => measure("conduit-3.0.yaml", dir),
);
