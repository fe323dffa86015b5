/**
 * Held-out documents: real OpenAPI 3.1 documents convert openapi was not
 * built from (it was built on the OpenAPI Initiative's examples, Box and
 * DigitalOcean), each converted through the CLI, validated, and run
 * against a mock generated from the same document
 * (tests/support/openapi_mock.ts) with `--openapi` coverage. Sources and
 * licenses: tests/fixtures/openapi/README.md.
 *
 * - Redocly's Museum API (8 operations, `webhooks` beside its paths, 3.1
 *   `examples` lists): its webhook is named in the summary as not
 *   converted.
 * - Adyen's Checkout API v71 (28 operations, 890 KB, `oneOf` payment
 *   methods and a discriminator): its examples hold Adyen's own `{{…}}`
 *   placeholders, which flowrun refused as another tool's expressions
 *   until the converter wrote their `{` through a var; the mock receives
 *   them as the document writes them.
 * - Discord's HTTP API (242 operations, no tags, 1.2 MB, 3,890 `$ref`s,
 *   513 `oneOf`s, `type: [x, "null"]` everywhere): its ids are strings with
 *   a `pattern`, which generated values did not match, and its messages
 *   nest deeper than the generator's depth bound, which dropped required
 *   properties; its 242 untagged operations were one flow, whose first
 *   failed step skipped the rest (now a flow per first path segment); its
 *   oauth2 scheme has a clientCredentials flow, whose token requests the
 *   mock answers.
 */
import assert from "node:assert/strict";
import { root, runCli } from "../support/cli.ts";
import { startOpenApiMock } from "../support/openapi_mock.ts";
import { parse } from "yaml";

const FIXTURES = `${root}tests/fixtures/openapi`;

interface Assertion {
  operator: string;
  passed: boolean;
  message: string;
}
interface StepReport {
  name: string;
  status: string;
  assertions: Assertion[];
}

const ENV = {
  API_KEY: "key-0123456789",
  API_USERNAME: "user-ann",
  API_PASSWORD: "pw-0123456789",
  CLIENT_ID: "client-abc",
  CLIENT_SECRET: "cs-0123456789",
};

/** Converts, validates and runs one fixture against its mock; the summary, report and mock. */
async function heldOut(name: string, check: (run: Converted) => void | Promise<void>) {
  const doc = `${FIXTURES}/${name}`;
  const text = await Deno.readTextFile(doc);
  const mock = startOpenApiMock(name.endsWith(".json") ? JSON.parse(text) : parse(text));
  const dir = await Deno.makeTempDir();
  try {
    const converted = await runCli(["convert", "openapi", doc, "-o", dir]);
    assert.equal(converted.code, 0, converted.stderr);
    const valid = await runCli(["validate", dir, "--no-env"]);
    assert.equal(valid.code, 0, valid.stdout + valid.stderr);
    const run = await runCli(
      ["run", dir, "--openapi", doc, "--report-json", `${dir}/report.json`],
      { env: { BASE_URL: mock.base, ...ENV } },
    );
    const report = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
    const steps: StepReport[] = report.flows.flatMap((f: { steps: StepReport[] }) => f.steps);
    const checks = steps.flatMap((s) => s.assertions).filter((a) => a.operator === "openapi");
    assert.deepEqual(
      steps.filter((s) => s.status !== "passed").map((s) => s.name),
      [],
      run.stdout,
    );
    assert.equal(run.code, 0, run.stdout + run.stderr);
    assert.deepEqual(checks.filter((a) => !a.passed), [], "every openapi: check passes");
    assert.deepEqual(mock.unmatched, [], "every request reaches an operation of the document");
    assert.deepEqual(mock.refused, [], "every request carries the credential its operation asks");
    await check({
      dir,
      summary: converted.stderr,
      steps,
      checks: checks.length,
      coverage: report.openapi_coverage[0],
      mock,
    });
  } finally {
    await mock.close();
    await Deno.remove(dir, { recursive: true });
  }
}

interface Converted {
  dir: string;
  summary: string;
  steps: StepReport[];
  checks: number;
  coverage: { operations: unknown; responses: unknown };
  mock: ReturnType<typeof startOpenApiMock>;
}

Deno.test("Redocly's Museum API (3.1, webhooks): every step passes; its webhook is named", async () => {
  await heldOut("museum.yaml", ({ summary, steps, checks, coverage }) => {
    assert.match(summary, /Converted Redocly Museum API: 8 operations into 3 flows/);
    assert.match(
      summary,
      /^1 webhook operation not converted \(publishNewEvent\): the API sends it; a suite does not\.$/m,
    );
    assert.match(summary, / {2}API_USERNAME: /);
    assert.equal(steps.length, 8);
    assert.equal(checks, 6);
    assert.deepEqual(coverage.operations, { total: 8, exercised: 8, percent: 100 });
  });
});

Deno.test("Adyen's Checkout API: its {{…}} placeholders are sent as the document writes them", async () => {
  await heldOut("adyen-checkout-v71.json", async ({ dir, steps, checks, coverage, mock }) => {
    assert.equal(steps.length, 28);
    assert.equal(checks, 27);
    assert.deepEqual(coverage.operations, { total: 28, exercised: 28, percent: 100 });
    const flow = await Deno.readTextFile(`${dir}/recurring.yaml`);
    assert.match(flow, /^ {2}lbrace: "\{"$/m);
    assert.match(flow, /Authorization: Basic \$\{vars\.lbrace\}\{credentials\}\}/);
    const sent = JSON.parse(mock.bodies.get("POST /v71/forward")!);
    assert.equal(sent.request.headers.Authorization, "Basic {{credentials}}");
    assert.match(sent.request.body, /"holderName":"\{\{holderName\}\}"/);
  });
});

Deno.test("Discord's API (242 operations, patterns, deep oneOfs): every step and check passes", async () => {
  await heldOut("discord.json", async ({ dir, summary, steps, checks, coverage, mock }) => {
    assert.match(summary, /Converted Discord HTTP API \(Preview\): 242 operations into 17 flows/);
    assert.match(summary, /^ {2}guilds\.yaml: 91 steps \(untagged operations under \/guilds\)$/m);
    assert.match(summary, / {2}CLIENT_ID: the OAuth2 client id of "OAuth2" \(client_credentials/);
    assert.equal(steps.filter((s) => !s.name.startsWith("auth › ")).length, 242);
    assert.equal(checks, 175);
    assert.deepEqual(coverage.operations, { total: 242, exercised: 242, percent: 100 });
    assert.equal(mock.tokenRequests.length, steps.length - 242, "a token step per token request");
    const flow = await Deno.readTextFile(`${dir}/guilds.yaml`);
    assert.match(flow, /^ {2}guild_id: "0"$/m, "an id its pattern ^(0|[1-9][0-9]*)$ accepts");
  });
});
