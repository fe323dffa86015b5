/**
 * `convert har` on a journey through Unleash's admin UI (a React single-page
 * app; tests/real/unleash_journey.ts): sign in as the admin Unleash makes on
 * its first start, create a flag in the default project, switch it on in
 * `production`, archive it. Both HAR forms are stored in
 * tests/real/fixtures/unleash/ (the app's script and style bodies left out),
 * converted with the default options and run on fresh instances with only
 * the variables the flow asks for (the password the user typed): every step
 * must pass, on each of two fresh instances, and again on the first (the
 * flag's name the user typed is made the run's own: `checkout-redesign-${RUN_ID}`;
 * tests/convert/har_client_named_test.ts).
 *
 * Before 2026-11-26 (docs/real-servers.md) about half the runs failed: the
 * server fills a new flag's `lifecycle` a moment after the create, the read
 * after it checked `$.json.lifecycle`, and Playwright's HAR held no body for
 * the create (the page navigates away), so nothing showed the field came
 * later (tests/convert/har_unrecorded_create_test.ts; such a recording, from
 * an earlier version of the journey, is kept as create_unrecorded.pw.har).
 * The chrome-har recording kept is one where the page listed no flag before
 * the archive check, whose one-item list chrome-har flattened
 * (tests/convert/har_flattened_listed_test.ts). A new recording is made in
 * Chromium with `UNLEASH_FRESH=1`.
 */
import assert from "node:assert/strict";
import { ignoreBrowser, whyBrowserIgnored } from "../support/browser.ts";
import { runCli } from "../support/cli.ts";
import { userEnv } from "../support/convert_apps.ts";
import { hostPaths } from "../support/record_har.ts";
import { readReport } from "./measure.ts";
import { type Instance, prepare, start } from "./servers.ts";
import { postgresMissing, UNLEASH, withUnleash } from "./unleash.ts";
import { ADMIN, FLAG, publicRecording, recordJourney } from "./unleash_journey.ts";

const postgres = postgresMissing();
const unleash = postgres ? { ignoredBecause: postgres } : await prepare([UNLEASH]);
const FIXTURES = new URL("./fixtures/unleash/", import.meta.url).pathname;

/** The requests a journey must have replayed (the flag under the run's own name). */
const JOURNEY = [
  /^POST \/auth\/simple\/login$/,
  /^POST \/api\/admin\/projects\/default\/features$/,
  new RegExp(
    `^POST /api/admin/projects/default/features/${FLAG}-[\\w-]+/environments/production/on$`,
  ),
  new RegExp(`^DELETE /api/admin/projects/default/features/${FLAG}-[\\w-]+$`),
];

/** Runs the flow at `flowPath` once on `b` with what it asks; says what passed. */
async function runOn(b: Instance, flowPath: string, flow: string, label: string) {
  const env = userEnv(flow, b.origin, (name) => /PASSWORD/.test(name) ? ADMIN.password : undefined);
  const report = `${flowPath}.${label}.json`;
  const run = await runCli(["run", flowPath, "--report-json", report], { env });
  const { steps } = await readReport(report);
  const failed = steps.filter((s) => s.status !== "passed");
  console.error(
    `unleash HAR ${label}: ${
      steps.length - failed.length
    } of ${steps.length} steps passed on a fresh instance with ${Object.keys(env).join(", ")}${
      failed.length ? `; failed: ${failed.map((s) => `${s.name} (${s.message})`).join(", ")}` : ""
    }`,
  );
  const sent = steps.filter((s) => s.request)
    .map((s) => `${s.request!.method} ${new URL(s.request!.url).pathname}`);
  for (const step of JOURNEY) {
    assert.ok(sent.some((s) => step.test(s)), `${step} not in\n${sent.join("\n")}`);
  }
  assert.deepEqual(Object.keys(env).sort(), ["BASE_URL", "LOGIN_PASSWORD"]);
  assert.equal(failed.length, 0, `${run.stdout}\n${flow}`);
  assert.equal(run.code, 0, run.stdout);
}

/** Converts `har` with the defaults and runs it on two fresh instances, twice on the first. */
async function convertAndRun(har: string, form: string, prefix: string): Promise<void> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-real-unleash-har-" });
  try {
    const flowPath = `${dir}/${form}.yaml`;
    const converted = await runCli(["convert", "har", har, "-o", flowPath]);
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(converted.stderr, /Set before running: LOGIN_PASSWORD\./);
    const flow = await Deno.readTextFile(flowPath);
    assert.ok(!flow.includes(ADMIN.password), "the password is no literal of the flow");
    // The lifecycle a new flag gets a moment after the create is never checked.
    assert.doesNotMatch(flow, /path: \$\.json\.lifecycle,/, flow);
    assert.match(flow, new RegExp(`^  \\w+: ${FLAG}-\\$\\{RUN_ID\\}$`, "m"), flow);
    // A second run on the same instance creates a flag of its own name (before: 409).
    await withUnleash(prefix, start, async (b) => {
      await runOn(b, flowPath, flow, `${form} 1`);
      await runOn(b, flowPath, flow, `${form} 1, again`);
    });
    await withUnleash(prefix, start, (b) => runOn(b, flowPath, flow, `${form} 2`));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

for (const form of ["pw", "cdp"]) {
  Deno.test({
    name:
      `real servers: Unleash's admin UI recorded in Chromium (${form} HAR: sign in, create a flag, switch it on, archive it) passes every step on two fresh instances, twice on the first, with only the password asked${unleash.ignoredBecause}`,
    ignore: unleash.ignoredBecause !== "",
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const har = `${FIXTURES}journey.${form}.har`;
      assert.deepEqual(hostPaths(await Deno.readTextFile(har)), []);
      await convertAndRun(har, form, unleash.install!.prefix);
    },
  });
}

Deno.test({
  name:
    `real servers: Unleash: a Playwright recording with no body for the create (the page navigated away) checks no lifecycle on the read after it and passes every step${unleash.ignoredBecause}`,
  ignore: unleash.ignoredBecause !== "",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const har = `${FIXTURES}create_unrecorded.pw.har`;
    const text = await Deno.readTextFile(har);
    assert.deepEqual(hostPaths(text), []);
    // The shape this recording is kept for: the create's answer is missing, a later read has it.
    const entries = JSON.parse(text).log.entries as {
      request: { method: string; url: string };
      response: { content: { text?: string } };
    }[];
    const create = entries.find((e) =>
      e.request.method === "POST" && e.request.url.endsWith("/projects/default/features")
    );
    assert.equal(create?.response.content.text, undefined);
    assert.ok(entries.some((e) => e.response.content.text?.includes('"lifecycle":{')));
    await convertAndRun(har, "create_unrecorded", unleash.install!.prefix);
  },
});

const fresh = Deno.env.get("UNLEASH_FRESH") === "1";

Deno.test({
  name: `real servers: Unleash: a journey recorded now in Chromium passes on fresh instances${
    unleash.ignoredBecause || whyBrowserIgnored
  }${fresh ? "" : " [ignored: set UNLEASH_FRESH=1 to record anew]"}`,
  ignore: unleash.ignoredBecause !== "" || !fresh || ignoreBrowser,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const prefix = unleash.install!.prefix;
    const dir = await Deno.makeTempDir({ prefix: "flowrun-real-unleash-har-" });
    try {
      const recorded = await withUnleash(prefix, start, (a) => recordJourney(a.origin));
      for (const [form, har] of [["pw", recorded.playwright], ["cdp", recorded.chromeHar]]) {
        await Deno.writeTextFile(`${dir}/${form}.har`, publicRecording(har));
        await convertAndRun(`${dir}/${form}.har`, form, prefix);
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
