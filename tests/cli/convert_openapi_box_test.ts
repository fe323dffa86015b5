/**
 * Box's 296-operation OpenAPI document (tests/fixtures/openapi/box-platform.json)
 * converted through the CLI and run against a mock generated from the same
 * document (tests/support/openapi_mock.ts): every step that runs sends one
 * request the document serves, every `openapi:` check evaluated passes, and
 * the coverage figure is the JSON report's. A flow holds a copy of each
 * producer it reads from another flow (23 in all: 3 for a body property naming a folder or a
 * user, body_links.ts), so 319 steps run.
 *
 * Box's one security scheme is oauth2 with only an authorizationCode flow
 * (a person signs in at a browser), so each flow says once, at flow level,
 * `auth: {bearer: {token: ${ENV.API_TOKEN}}}`, a token got beforehand; no
 * token request is made (no `auth › oauth2 token` entry: no grant flowrun
 * runs is declared). The five operations with `security: []` say `auth:
 * none` where their flow has that block (Zip Downloads' content download),
 * or are in a flow without one (Authorization's four). The mock refuses
 * with 401 a request without the credential its operation asks for, and
 * records any `Authorization` sent to an operation that asks for none.
 *
 * One step fails for a reason inherent to the document (the steps after it
 * still run: a converted step runs after a failure, issue 52): Box documents POST /metadata_templates/schema twice,
 * as `/metadata_templates/schema` (createMetadataTemplate, 201) and as
 * `/metadata_templates/schema#classifications` (200). A URL's fragment is
 * never sent, so no server can tell the two apart by the request; the mock
 * answers as the operation the request reaches (201), and the step written
 * for the `#classifications` one checks its documented 200. The 19 path keys with
 * a `#` are never exercised for the same reason: their requests reach the
 * operation without the `#`.
 */
import assert from "node:assert/strict";
import { root, runCli } from "../support/cli.ts";
import { startOpenApiMock } from "../support/openapi_mock.ts";

const BOX = `${root}tests/fixtures/openapi/box-platform.json`;

interface StepReport {
  name: string;
  status: string;
  request?: { method: string; url: string };
  assertions: { operator: string; passed: boolean; message: string }[];
}

Deno.test("Box's converted suite runs against a mock generated from its document", async () => {
  const dir = await Deno.makeTempDir();
  const doc = JSON.parse(await Deno.readTextFile(BOX));
  const mock = startOpenApiMock(doc);
  try {
    const converted = await runCli(["convert", "openapi", BOX, "-o", dir]);
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(converted.stderr, /Converted Box Platform API: 296 operations into 73 flows/);
    assert.match(converted.stderr, / {2}BASE_URL: /);
    assert.match(converted.stderr, / {2}API_TOKEN: an access token of "OAuth2Security" /);
    const zip = await Deno.readTextFile(`${dir}/zip_downloads.yaml`);
    assert.match(zip, /^auth:\n {2}bearer:\n {4}token: \$\{ENV\.API_TOKEN\}\n/m);
    assert.match(zip, /- name: get_zip_downloads_id_content\n {4}auth: none\n/);
    assert.doesNotMatch(
      await Deno.readTextFile(`${dir}/authorization.yaml`),
      /auth:/,
      "its four operations all have security: []",
    );
    const run = await runCli(
      ["run", dir, "--openapi", BOX, "--report-json", `${dir}/report.json`],
      { env: { BASE_URL: mock.base, API_TOKEN: "box-token" } },
    );
    const report = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
    const steps: StepReport[] = report.flows.flatMap((f: { steps: StepReport[] }) => f.steps);
    // A step per operation, and a copy of each producer a flow reads from another (issue 52).
    assert.equal(steps.length, 319, "a step per operation, and 23 producers copied");

    const failed = steps.filter((s) => s.status === "failed");
    assert.deepEqual(failed.map((s) => s.name), ["post_metadata_templates_schema_classifications"]);
    assert.deepEqual(
      failed[0].assertions.filter((a) => !a.passed).map((a) => a.message),
      ["status: expected 200, got 201"],
      "the #classifications operation's 200; the request reaches createMetadataTemplate's 201",
    );
    // Every converted step runs after a failure (`always`): the three after it are no longer skipped.
    assert.deepEqual(steps.filter((s) => s.status === "skipped").map((s) => s.name), []);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(run.stdout, /319 steps: 318 passed, 1 failed/);

    const sent = steps.filter((s) => s.request).map((s) =>
      `${s.request!.method} ${new URL(s.request!.url).pathname}`
    );
    assert.equal(sent.length, 319);
    assert.equal(mock.seen.length, 319);
    // The report writes a secret-looking path segment as ***; it stands for any segment.
    const left = [...mock.seen];
    for (const line of sent) {
      const pattern = new RegExp(
        `^${line.replace(/[.?+()[\]{}|^$\\]/g, "\\$&").replaceAll("***", "[^/]+")}$`,
      );
      const at = left.findIndex((seen) => pattern.test(seen));
      assert.ok(at >= 0, `the mock received ${line}`);
      left.splice(at, 1);
    }
    assert.deepEqual(left, [], "one request per step that ran");
    assert.deepEqual(mock.unmatched, [], "every request reaches an operation of the document");
    assert.deepEqual(mock.refused, [], "every request carries the credential its operation asks");
    assert.deepEqual(mock.unasked, [], "none to an operation with security: []");
    assert.deepEqual([...mock.tokens], ["box-token"]);
    assert.ok(
      !steps.some((s) => s.name.startsWith("auth › ")),
      "no token request: Box declares no grant flowrun runs",
    );
    const schemaChecks = steps.flatMap((s) => s.assertions).filter((a) => a.operator === "openapi");
    assert.equal(schemaChecks.length, 261);
    assert.deepEqual(schemaChecks.filter((a) => !a.passed), [], "every openapi: check passes");

    const [coverage] = report.openapi_coverage;
    assert.deepEqual(coverage.operations, { total: 296, exercised: 277, percent: 93.5 });
    const missed = coverage.items.filter((i: { exercised: boolean }) => !i.exercised)
      .map((i: { method: string; path: string }) => `${i.method} ${i.path}`);
    assert.equal(missed.filter((m: string) => m.includes("#")).length, 19);
    assert.deepEqual(
      missed.filter((m: string) => !m.includes("#")),
      [],
      "the step after the failed one runs too (the PUTs reach ones with #)",
    );
  } finally {
    await mock.close();
    await Deno.remove(dir, { recursive: true });
  }
});
