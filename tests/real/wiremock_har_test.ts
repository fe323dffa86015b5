/**
 * `convert har` on a journey recorded in Chromium through the Swagger UI
 * that WireMock 3.13.2 serves for its admin API (`/__admin/swagger-ui/`):
 * create a stub mapping with "Try it out", read it by the id the creation
 * answered (typed in by hand, as a user does), open the stubbed URL in the
 * browser, delete the mapping by its id. Recorded on a fresh instance A
 * (both HAR forms), converted with default options, and run on a fresh
 * instance B with only the base URL set: the first run must pass whole;
 * a second run on the same B (whose mapping gets another id) must too.
 */
import assert from "node:assert/strict";
import { ignoreBrowser, whyBrowserIgnored } from "../support/browser.ts";
import { convertHarFile, runCli } from "../support/cli.ts";
import { userEnv } from "../support/convert_apps.ts";
import { type Recordings, recordSession } from "../support/record_har.ts";
import { readReport } from "./measure.ts";
import { type Instance, prepare, realTest, withInstance } from "./servers.ts";
import { javaMissing, WIREMOCK, wiremockLaunch } from "./wiremock.ts";

const java = javaMissing();
const wiremock = java ? { ignoredBecause: java } : await prepare([WIREMOCK]);

/** The stub the journey creates: `GET /greeting` answers a JSON greeting. */
const STUB = {
  request: { method: "GET", url: "/greeting" },
  response: {
    status: 200,
    jsonBody: { greeting: "hello" },
    headers: { "Content-Type": "application/json" },
  },
};

/** The journey in WireMock's Swagger UI: create a stub, read it by id, call it, delete it. */
function journey(a: Instance): Promise<Recordings> {
  return recordSession(async (page) => {
    await page.goto(`${a.origin}/__admin/swagger-ui/`);
    const op = (id: string) => page.locator(`[id="operations-Stub_Mappings-${id}"]`);
    const tryOut = async (id: string) => {
      await op(id).locator(".opblock-summary").click();
      await op(id).locator("button.try-out__btn").click();
    };
    const execute = async (id: string) => {
      await op(id).locator("button.execute").click();
      return await op(id).locator(".live-responses-table tr.response .response-col_status").first()
        .textContent();
    };
    await tryOut("createNewStubMapping");
    await op("createNewStubMapping").locator("textarea.body-param__text").fill(
      JSON.stringify(STUB, null, 2),
    );
    assert.equal((await execute("createNewStubMapping"))?.trim(), "201");
    const created = await op("createNewStubMapping")
      .locator(".live-responses-table .response-col_description pre").first().textContent();
    const id = String(JSON.parse(created ?? "{}").id);
    assert.match(id, /^[0-9a-f-]{36}$/);
    await tryOut("getStubMappingById");
    await op("getStubMappingById").locator('tr[data-param-name="stubMappingId"] input').fill(id);
    assert.equal((await execute("getStubMappingById"))?.trim(), "200");
    // The user opens the stubbed URL in the tab, then goes back to the Swagger UI.
    const stubbed = await page.goto(`${a.origin}/greeting`);
    assert.equal(stubbed?.status(), 200);
    await page.goBack();
    await tryOut("deleteStubMapping");
    await op("deleteStubMapping").locator('tr[data-param-name="stubMappingId"] input').fill(id);
    assert.equal((await execute("deleteStubMapping"))?.trim(), "200");
  });
}

realTest(
  "a journey through WireMock's Swagger UI, recorded in Chromium, passes on a fresh instance on its first run, and its second",
  wiremock.ignoredBecause || whyBrowserIgnored,
  async (dir) => {
    const launch = wiremockLaunch(wiremock.install!.prefix);
    const recorded = await withInstance(launch, (a) => journey(a));
    for (const [form, har] of [["pw", recorded.playwright], ["cdp", recorded.chromeHar]]) {
      const flowPath = `${dir}/${form}.yaml`;
      await Deno.writeTextFile(`${dir}/${form}.har`, har);
      const flow = await convertHarFile(`${dir}/${form}.har`, flowPath);
      await withInstance(launch, async (b) => {
        const env = userEnv(flow, b.origin, () => undefined);
        for (const run of [1, 2]) {
          const report = `${flowPath}.${run}.json`;
          const done = await runCli(["run", flowPath, "--report-json", report], { env });
          const { steps } = await readReport(report);
          const failed = steps.filter((s) => s.status !== "passed");
          console.error(
            `WireMock Swagger UI (${form} HAR), run ${run} on instance B: ${
              steps.length - failed.length
            } of ${steps.length} steps passed${
              failed.length ? `; failed: ${failed.map((s) => s.name).join(", ")}` : ""
            }`,
          );
          const sent = steps.map((s) => `${s.request?.method} ${new URL(s.request!.url).pathname}`)
            .filter((s) => !s.endsWith("/__admin/docs/swagger"))
            .map((s) => s.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/, "{id}"));
          assert.deepEqual(sent, [
            "POST /__admin/mappings",
            "GET /__admin/mappings/{id}",
            "GET /greeting",
            "DELETE /__admin/mappings/{id}",
          ], flow);
          assert.equal(done.code, 0, `run ${run}:\n${done.stdout}\n${flow}`);
          assert.equal(failed.length, 0);
        }
        // The mapping id is taken from the creation's answer, never sent as recorded (the
        // comments above the steps name the recorded URLs).
        const recordedId = /\/__admin\/mappings\/([0-9a-f-]{36})/.exec(har)?.[1];
        const sent = flow.split("\n").filter((line) => !/^\s*#/.test(line)).join("\n");
        assert.ok(recordedId && !sent.includes(recordedId), flow);
      });
    }
  },
  ignoreBrowser,
);
