/**
 * `convert openapi` on WireMock 3.13.2 (npm `wiremock`, its standalone jar),
 * a Java server of another family than the LoopBack apps: the document its
 * admin API serves (`/__admin/docs/swagger`, 41 operations) is fetched from
 * one fresh instance, converted with default options, and run as the
 * summary prints it, with only the variables it asks for, on another fresh
 * instance. Measured: the operations that got a 2xx, 37 of 41 (90.2 %; 36
 * before the import sent the `stub-mappings` its summary names:
 * tests/convert/openapi_summary_body_test.ts). Each refused operation is one
 * the document itself makes impossible, named with why
 * (docs/real-servers.md); any other refusal fails the test.
 */
import assert from "node:assert/strict";
import { acceptedSaid, convertAndRunAsPrinted, knownOnly, operationsOf } from "./measure.ts";
import { prepare, withInstance } from "./servers.ts";
import { javaMissing, WIREMOCK, WIREMOCK_DOCUMENT, wiremockLaunch } from "./wiremock.ts";

const java = javaMissing();
const wiremock = java ? { ignoredBecause: java } : await prepare([WIREMOCK]);

/**
 * The operations no suite made from this document alone can get a 2xx for
 * on WireMock 3.13.2, what each got ("never": never sent), and why.
 */
const IMPOSSIBLE: Record<string, string> = {
  // Left out by the converter (lib/convert/openapi/stops.ts): it stops the server.
  "POST /__admin/shutdown": "never",
  // The document still lists it; WireMock 3 serves no such route (DELETE /__admin/requests is it).
  "POST /__admin/requests/reset": "404",
  // The document's body is a delay distribution at the top (`median`, `sigma`); the server
  // takes `{"fixedDelay": …, "delayDistribution": {…}}` and refuses "median" (422).
  "POST /__admin/settings": "422",
  // The request journal holds requests to stubs, and no operation of the document sends one:
  // on a fresh instance there is no request to read (its DELETE answers 200 for any id).
  "GET /__admin/requests/{requestId}": "404",
};

Deno.test({
  name:
    `real servers: WireMock's own admin OpenAPI document, converted and run on a fresh instance, gets a 2xx on every operation it makes possible${wiremock.ignoredBecause}`,
  ignore: wiremock.ignoredBecause !== "",
  sanitizeResources: false,
  async fn() {
    const launch = wiremockLaunch(wiremock.install!.prefix);
    const dir = await Deno.makeTempDir({ prefix: "flowrun-real-wiremock-" });
    try {
      const doc = await withInstance(launch, async (a) => {
        const response = await fetch(`${a.origin}${WIREMOCK_DOCUMENT}`);
        assert.equal(response.status, 200);
        return await response.json();
      });
      await Deno.writeTextFile(`${dir}/wiremock.json`, JSON.stringify(doc, null, 2));
      await withInstance(launch, async (b) => {
        const trial = await convertAndRunAsPrinted(
          ["convert", "openapi", `${dir}/wiremock.json`, "-o", `${dir}/flows`],
          `${dir}/report.json`,
          knownOnly({ BASE_URL: b.origin }),
        );
        assert.equal(trial.converted.code, 0, trial.converted.stderr);
        assert.match(
          trial.converted.stderr,
          /^Left out 1 operation that stops the server \(run it by hand\): POST \/__admin\/shutdown$/m,
        );
        assert.ok(trial.report, `no report:\n${trial.run.stdout}\n${trial.run.stderr}`);
        const ops = operationsOf(doc);
        const result = acceptedSaid(`wiremock@${WIREMOCK.version}`, ops, trial.report.steps);
        assert.equal(ops.length, 41);
        const refused = Object.fromEntries(
          result.refused.map((op) => [`${op.method} ${op.path}`, op.got.split(" ")[0]]),
        );
        assert.deepEqual(refused, IMPOSSIBLE, trial.run.stdout.slice(0, 6000));
        // The server is still there after the suite: nothing stopped it.
        const health = await fetch(`${b.origin}/__admin/health`);
        assert.equal(health.status, 200);
        await health.body?.cancel();
        const flows = [...Deno.readDirSync(`${dir}/flows`)].filter((e) => e.name.endsWith(".yaml"))
          .map((e) => Deno.readTextFileSync(`${dir}/flows/${e.name}`)).join("\n");
        assert.doesNotMatch(flows, /password|secret|token/i, "no literal credential");
        // The flows that reset or delete all run alone: Stub Mappings, Requests, Near Misses,
        // Recordings, Scenarios, System; Files only runs beside others.
        assert.equal(flows.match(/^serial: true$/gm)?.length, 6);
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
