/**
 * `convert har` on the admin app of a real product nobody here wrote:
 * Directus 10.13 (tests/real/directus.ts), a headless CMS whose Vue
 * single-page app at `/admin` signs in with a session cookie
 * (`directus_session_token`, renewed by each `POST /auth/refresh`), asks the
 * server for its whole schema (`/fields`, `/relations`, `/collections`,
 * listings whose keys end in `key` and `_column`), counts with
 * `aggregate[countDistinct]=id` and tracks the page the user is on. The
 * journey (directus_journey.ts): sign in, create a collection `articles`
 * with two fields in the data model, add two items, edit one, search the
 * list, delete one, sign out. Two sessions of it are stored in
 * tests/real/fixtures/directus/har/ (`journey`, `second`; both HAR forms,
 * the app's script and style bodies left out).
 *
 * Measured 2026-11-26 on the stored recordings (142 steps each), converted
 * with the default options and run on a fresh instance with only what the
 * flow asks (its base URL and the password): every step passes, both forms,
 * and again on the same instance (the collection the user named is made
 * the run's own, `articles-${RUN_ID}`); `--verify` against a fresh instance
 * passes with no repair; the two-recording conversion passes too, with no
 * variable since its page-tracking calls pair with the ones sent alike. A
 * new recording is made in Chromium with `DIRECTUS_FRESH=1`.
 */
import assert from "node:assert/strict";
import { ignoreBrowser } from "../support/browser.ts";
import { runCli } from "../support/cli.ts";
import { userEnv } from "../support/convert_apps.ts";
import { hostPaths } from "../support/record_har.ts";
import { DIRECTUS, type Directus, directusMissing, withDirectus } from "./directus.ts";
import { COLLECTION, journeyInstance, recordJourney, TITLES } from "./directus_journey.ts";
import { readReport } from "./measure.ts";
import { prepare, realTest, unlessAsked } from "./servers.ts";
import { publicRecording } from "./unleash_journey.ts";

const missing = directusMissing();
const prepared = missing ? { ignoredBecause: missing } : await prepare([DIRECTUS]);
const FIXTURES = new URL("./fixtures/directus/har/", import.meta.url).pathname;

/** The writes the journey must have replayed, in the collection the run named its own. */
const JOURNEY = [
  /^POST \/auth\/login$/,
  /^POST \/collections$/,
  new RegExp(`^POST /fields/${COLLECTION}-[\\w-]+$`),
  new RegExp(`^POST /items/${COLLECTION}-[\\w-]+$`),
  new RegExp(`^PATCH /items/${COLLECTION}-[\\w-]+/\\d+$`),
  new RegExp(`^DELETE /items/${COLLECTION}-[\\w-]+$`),
  /^POST \/auth\/logout$/,
];

/** Converts `hars` with the default options (and `more`) into `dir`: the flow, the summary. */
async function convert(hars: string[], dir: string, name: string, more: string[] = []) {
  const flowPath = `${dir}/${name}.yaml`;
  const converted = await runCli(["convert", "har", ...hars, "-o", flowPath, ...more]);
  assert.equal(converted.code, 0, converted.stderr);
  const flow = await Deno.readTextFile(flowPath);
  return { flowPath, flow, summary: converted.stderr };
}

/**
 * Runs the flow on `d` (`flowrun run FLOW`) with what its header asks (the base URL, the
 * password the user knows): every step must pass and the journey's writes must be sent.
 */
async function runAsUser(
  d: Directus,
  converted: { flowPath: string; flow: string },
  label: string,
): Promise<number> {
  const { flowPath, flow } = converted;
  const env = userEnv(flow, d.baseUrl, (n) => /PASSWORD/.test(n) ? d.adminPassword : undefined);
  assert.deepEqual(Object.keys(env).sort(), ["BASE_URL", "LOGIN_PASSWORD"], flow);
  const report = `${flowPath}.${label.replaceAll(/\W+/g, "_")}.json`;
  const run = await runCli(["run", flowPath, "--report-json", report], { env });
  const { steps } = await readReport(report);
  const failed = steps.filter((s) => s.status !== "passed");
  console.error(
    `directus HAR ${label}: ${steps.length - failed.length} of ${steps.length} steps passed${
      failed.length ? `; failed: ${failed.map((s) => `${s.name} (${s.message})`).join(", ")}` : ""
    }`,
  );
  const sent = steps.filter((s) => s.request)
    .map((s) => `${s.request!.method} ${new URL(s.request!.url).pathname}`);
  for (const step of JOURNEY) assert.ok(sent.some((s) => step.test(s)), `${step} not sent`);
  assert.equal(failed.length, 0, `${run.stdout}\n${flow}`);
  assert.equal(run.code, 0, run.stdout);
  assert.ok(!run.stdout.includes(d.adminPassword), "the password is never printed");
  return steps.length;
}

/** What a converted flow must hold whatever the form: the password asked, names kept. */
function assertWellFormed(flow: string, summary: string, password: string): void {
  assert.match(summary, /Set before running: LOGIN_PASSWORD\./);
  assert.ok(!flow.includes(password), "the password is no literal of the flow");
  // The session cookie's name stays a name; the schema's words stay words.
  assert.match(
    flow,
    /cookie: directus_session_token=\$\{steps\.\w+\.capture\.directus_session_token\}/,
  );
  assert.doesNotMatch(flow.replace(/^\s*#.*$/gm, ""), /\*\*\*|RECORDED_SECRET/);
  assert.match(flow, new RegExp(`^  \\w+: ${COLLECTION}-\\$\\{RUN_ID\\}$`, "m"), flow);
  // The edit and the bulk delete name the rows the run's creates answered, not the recorded
  // numbers a new table happens to give again (har_created_id_collections_test.ts).
  const row = /\$\{steps\.\w+\.capture\.\w+\}/.source;
  assert.doesNotMatch(flow, /^\s+url: \S+\/items\/\$\{vars\.collection_name\}\/\d+$/m);
  // Its revisions, activity and shares are asked by a filter on the collection and the row.
  assert.doesNotMatch(flow, /^\s+url: .*\[item\]\[_eq\]=\d/m);
  assert.match(flow, new RegExp(`^\\s+url: \\S+/revisions\\?.*\\[item\\]\\[_eq\\]=${row}`, "m"));
  assert.match(
    flow,
    new RegExp(`^\\s+url: \\S+/items/\\$\\{vars\\.collection_name\\}/${row}$`, "m"),
  );
  assert.match(flow, new RegExp(`^\\s+body: \\["${row}"\\]$`, "m"), flow);
}

for (const form of ["pw", "cdp"]) {
  realTest(
    `Directus's admin app recorded in Chromium (${form} HAR: sign in, a collection with two fields, two items, edit, search, delete, sign out) passes every step on a fresh instance, twice, with only the password asked`,
    prepared.ignoredBecause,
    async (dir) => {
      const har = `${FIXTURES}journey.${form}.har`;
      assert.deepEqual(hostPaths(await Deno.readTextFile(har)), []);
      const converted = await convert([har], dir, form);
      await withDirectus(journeyInstance(prepared.install!.prefix), async (d) => {
        assertWellFormed(converted.flow, converted.summary, d.adminPassword);
        const steps = await runAsUser(d, converted, `${form} 1`);
        assert.ok(steps >= 140, `${steps} steps`);
        // A second run on the same instance makes a collection of its own name.
        await runAsUser(d, converted, `${form} 1, again`);
      });
    },
  );
}

realTest(
  "Directus: the two recordings of the journey (two sessions, two instances) convert into a flow that passes every step on a fresh instance",
  prepared.ignoredBecause,
  async (dir) => {
    const converted = await convert(
      [`${FIXTURES}journey.pw.har`, `${FIXTURES}second.pw.har`],
      dir,
      "two",
    );
    // The page tracking, called 9 times in one session and 8 in the other, pairs call for call
    // with the one sent alike: no value of it read as differing (har_two_recordings_pairing_test.ts).
    assert.match(converted.summary, /Compared with the second recording: \d+ requests paired/);
    // The browser's Origin and the Referer of each page a write came from differ, another port
    // in each recording, and are the base URL's origin (har_origin_header_test.ts,
    // har_form_referer_test.ts): the run's BASE_URL, none read from a variable
    // (har_two_recordings_base_url_test.ts).
    const pages = new Set(converted.flow.match(/referer: \S+/g) ?? []);
    assert.ok(
      [...pages].every((p) => p.startsWith("referer: ${origin:vars.base_url}/")),
      [...pages].join("\n"),
    );
    // A Referer naming the collection the run makes (`${vars.collection_name}`, one name per
    // run: har_derived_name_test.ts) is made fresh; the others are the base URL alone.
    const perRun = [...pages].filter((p) => p.includes("${vars.collection_name}")).length;
    const fromVars = new RegExp(` ${perRun} made fresh, 0 read from a variable;`);
    assert.match(converted.summary, fromVars, converted.summary);
    assert.match(converted.flow, /origin: \$\{origin:vars\.base_url\}/);
    assert.doesNotMatch(converted.flow, /ENV\.(?!BASE_URL|LOGIN_PASSWORD)/, converted.flow);
    await withDirectus(journeyInstance(prepared.install!.prefix), async (d) => {
      assertWellFormed(converted.flow, converted.summary, d.adminPassword);
      await runAsUser(d, converted, "two recordings");
    });
  },
);

realTest(
  "Directus: --verify against a fresh instance (the password asked, from the environment) passes with no repair, and the verified flow passes there again",
  prepared.ignoredBecause,
  async (dir) => {
    await withDirectus(journeyInstance(prepared.install!.prefix), async (d) => {
      const flowPath = `${dir}/verified.yaml`;
      const verified = await runCli(
        ["convert", "har", `${FIXTURES}journey.cdp.har`, "--verify", d.baseUrl, "-o", flowPath],
        { env: { LOGIN_PASSWORD: d.adminPassword } },
      );
      console.error(`directus --verify: ${/^Verified[^\n]*/m.exec(verified.stderr)?.[0]}`);
      assert.equal(verified.code, 0, verified.stderr);
      assert.match(verified.stderr, /^Verified \d+ steps against \S+: all pass\.$/m);
      const flow = await Deno.readTextFile(flowPath);
      assertWellFormed(flow, verified.stderr, d.adminPassword);
      await runAsUser(d, { flowPath, flow }, "verified");
    });
  },
);

realTest(
  "Directus: a journey recorded now in Chromium passes on a fresh instance",
  prepared.ignoredBecause + unlessAsked("DIRECTUS_FRESH"),
  async (dir) => {
    const prefix = prepared.install!.prefix;
    const recorded = await withDirectus(
      { prefix },
      (a) => recordJourney(a.baseUrl, { email: a.adminEmail, password: a.adminPassword }),
    );
    for (const [form, har] of [["pw", recorded.playwright], ["cdp", recorded.chromeHar]]) {
      const text = publicRecording(har);
      assert.deepEqual(hostPaths(text), []);
      assert.ok(text.includes(JSON.stringify(TITLES[2]).slice(1, -1)), "the edit was recorded");
      await Deno.writeTextFile(`${dir}/${form}.har`, text);
      const converted = await convert([`${dir}/${form}.har`], dir, `fresh_${form}`);
      await withDirectus({ prefix }, (d) => runAsUser(d, converted, `fresh ${form}`));
    }
  },
  ignoreBrowser,
);
