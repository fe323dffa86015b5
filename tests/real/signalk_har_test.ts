/**
 * `convert har` on a journey through Signal K server 2.23.0's admin UI (a
 * React single-page app over its REST API and a WebSocket stream;
 * tests/real/signalk.ts, signalk_journey.ts), recorded in Chromium: log in
 * (a JSON login; the JWT in the `JAUTHENTICATION` cookie), the dashboard,
 * the data browser, Server → Settings (the vessel renamed, a server setting
 * changed, each saved),
 * Security → Users (a user added with a password, then deleted), Server →
 * Plugin Config (a bundled plugin enabled with one sentence, saved), log
 * out. Both HAR forms and a second recording (another session, another
 * instance) are stored in tests/real/fixtures/signalk/ (the app's script,
 * style and font bodies left out, this machine's folders renamed),
 * converted with the default options and run on a fresh instance (its
 * first admin made by the first-run form, as the recording's was) with only
 * what the summary asks for (the admin's password, and the added user's),
 * twice; `--verify` against a fresh instance too.
 *
 * Measured 2026-11-27 on the stored recordings (43 steps pw, 41 cdp):
 * every step passed twice on a fresh instance from the first conversion,
 * in both forms, from the two recordings too, and `--verify` passed all 43
 * with no repair; no converter change was needed. The settings save sends
 * the whole settings, the instance's port among them, captured from the
 * settings read before it: the fresh instance keeps its own. The instance is offline
 * (signalk.ts): its app store, which the UI asks for at each login, would
 * search the npm registry, and its answer (`storeAvailable`) would hang on
 * the network.
 */
import assert from "node:assert/strict";
import { ignoreBrowser } from "../support/browser.ts";
import { runCli } from "../support/cli.ts";
import { userEnv } from "../support/convert_apps.ts";
import { hostPaths } from "../support/record_har.ts";
import { runsOf, saysRun } from "./measure.ts";
import { prepare, realTest, unlessAsked, withInstance } from "./servers.ts";
import { SIGNALK, SIGNALK_ADMIN, signalkFirstAdmin, signalkLaunch } from "./signalk.ts";
import {
  CREW,
  PLUGIN,
  PRUNE_MINUTES,
  recordJourney,
  storedRecording,
  VESSEL_NAME,
} from "./signalk_journey.ts";

const prepared = await prepare([SIGNALK]);
const FIXTURES = new URL("./fixtures/signalk/", import.meta.url).pathname;

/** The requests the journey must have replayed (method and path). */
const JOURNEY = [
  "POST /signalk/v1/auth/login",
  "PUT /skServer/vessel",
  "PUT /skServer/settings",
  `POST /skServer/security/users/${CREW.userId}`,
  `DELETE /skServer/security/users/${CREW.userId}`,
  "POST /skServer/plugins/sk-to-nmea0183/config",
  "PUT /signalk/v1/auth/logout",
];

/** What a new user gives each variable the summary asks for: the passwords they typed. */
const known = (name: string) =>
  name === "LOGIN_PASSWORD"
    ? SIGNALK_ADMIN.password
    : /PASSWORD/.test(name)
    ? CREW.password
    : undefined;

/** The variables the summary asks for, as it prints them. */
const ASKED = /Set before running: LOGIN_PASSWORD, CREW_PASSWORD\.\n/;

/** Runs `fn` with a fresh instance whose first admin was made by the first-run form. */
function withSignalk<T>(fn: (origin: string) => Promise<T>): Promise<T> {
  return withInstance(signalkLaunch(prepared.install!.prefix), async (b) => {
    await signalkFirstAdmin(b.origin);
    return await fn(b.origin);
  });
}

/** Asserts `flow` holds no password typed in the journey nor a token, and saves the vessel's name. */
function assertWellFormed(flow: string): void {
  for (const secret of [SIGNALK_ADMIN.password, CREW.password]) {
    assert.ok(!flow.includes(secret), "a password is asked, never written");
  }
  // Nor a token: the login's JWT is captured from its answer, never the recorded one.
  assert.doesNotMatch(flow, /eyJ[\w-]+\.eyJ/, "a recorded JWT in the flow");
  assert.ok(flow.includes(VESSEL_NAME), flow);
}

/** Converts `hars` with the defaults into `dir`/flow.yaml; the summary and the flow. */
async function convert(hars: string[], dir: string) {
  const flowPath = `${dir}/flow.yaml`;
  const converted = await runCli(["convert", "har", ...hars, "-o", flowPath]);
  assert.equal(converted.code, 0, converted.stderr);
  assert.match(converted.stderr, ASKED);
  const flow = await Deno.readTextFile(flowPath);
  assertWellFormed(flow);
  return { flowPath, flow, summary: converted.stderr };
}

/**
 * Asserts the replay did what the journey did: the vessel renamed, the
 * setting saved, the plugin on, the user gone.
 */
async function assertReplayed(origin: string): Promise<void> {
  const login = await fetch(`${origin}/signalk/v1/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: SIGNALK_ADMIN.userId, password: SIGNALK_ADMIN.password }),
  });
  const cookie = `JAUTHENTICATION=${(await login.json()).token}`;
  const read = async (path: string) =>
    await (await fetch(`${origin}${path}`, { headers: { cookie } })).json();
  assert.equal((await read("/skServer/vessel")).name, VESSEL_NAME);
  // The settings save sends the whole settings, the port among them: this instance's, not the recording's.
  const settings = await read("/skServer/settings");
  assert.equal(Number(settings.pruneContextsMinutes), PRUNE_MINUTES);
  assert.equal(String(settings.port), new URL(origin).port);
  const plugin = (await read("/skServer/plugins")).find((p: { id: string }) => p.id === PLUGIN.id);
  assert.equal(plugin?.data?.enabled, true, JSON.stringify(plugin?.data));
  assert.equal(plugin.data.configuration.conversions[0].sentence, PLUGIN.sentence);
  const users: { userId: string }[] = await read("/skServer/security/users");
  assert.deepEqual(users.map((u) => u.userId), [SIGNALK_ADMIN.userId]);
}

/** Runs the flow twice on one fresh instance; asserts every step passed each time. */
async function runTwice(flowPath: string, flow: string, label: string) {
  await withSignalk(async (origin) => {
    const env = userEnv(flow, origin, known);
    assert.deepEqual(Object.keys(env).sort(), ["BASE_URL", "CREW_PASSWORD", "LOGIN_PASSWORD"]);
    const results = await runsOf(flowPath, env, 2, saysRun(`signalk HAR ${label}`));
    for (const { run, steps, passed } of results) {
      const sent = steps.filter((s) => s.request).map((s) =>
        `${s.request!.method} ${new URL(s.request!.url).pathname}`
      );
      for (const request of JOURNEY) assert.ok(sent.includes(request), `${request} not sent`);
      assert.ok(steps.length >= 40, `${steps.length} steps`);
      assert.equal(passed, steps.length, `${run.stdout}\n${flow}`);
      assert.equal(run.code, 0, run.stdout);
    }
    await assertReplayed(origin);
  });
}

for (const form of ["pw", "cdp"]) {
  realTest(
    `Signal K admin UI recorded in Chromium (journey.${form}.har: log in, data browser, rename the vessel, save a server setting, add and delete a user, enable and configure a plugin, log out) passes every step twice on a fresh instance`,
    prepared.ignoredBecause,
    async (dir) => {
      const har = `${FIXTURES}journey.${form}.har`;
      assert.deepEqual(hostPaths(await Deno.readTextFile(har)), []);
      const { flowPath, flow } = await convert([har], dir);
      await runTwice(flowPath, flow, form);
    },
  );
}

realTest(
  "Signal K admin UI: the two recordings of the journey (two sessions, two instances) convert into a flow that passes every step twice on a fresh instance",
  prepared.ignoredBecause,
  async (dir) => {
    const second = `${FIXTURES}second.pw.har`;
    assert.deepEqual(hostPaths(await Deno.readTextFile(second)), []);
    const { flowPath, flow, summary } = await convert([`${FIXTURES}journey.pw.har`, second], dir);
    assert.match(summary, /Compared with the second recording: \d+ requests paired/);
    // The browser's Origin differs, another port in each recording: the base URL's origin
    // (har_origin_header_test.ts), the run's BASE_URL, no variable
    // (har_two_recordings_base_url_test.ts).
    assert.match(summary, / 0 made fresh, 0 read from a variable;/, summary);
    assert.match(flow, /origin: \$\{origin:vars\.base_url\}/);
    await runTwice(flowPath, flow, "two recordings");
  },
);

realTest(
  "Signal K admin UI: --verify against a fresh instance passes every step and the flow it writes passes on another",
  prepared.ignoredBecause,
  async (dir) => {
    const flowPath = `${dir}/verified.yaml`;
    const har = `${FIXTURES}journey.pw.har`;
    const verified = await withSignalk((origin) =>
      runCli(["convert", "har", har, "--verify", origin, "-o", flowPath], {
        env: { LOGIN_PASSWORD: SIGNALK_ADMIN.password, CREW_PASSWORD: CREW.password },
      })
    );
    console.error(`signalk --verify: ${/^Verified[^\n]*/m.exec(verified.stderr)?.[0]}`);
    assert.equal(verified.code, 0, verified.stderr);
    assert.match(verified.stderr, /Verified \d+ steps against \S+: all pass\.\n/);
    assert.match(verified.stderr, / 0 repairs, every step passes/);
    const flow = await Deno.readTextFile(flowPath);
    assertWellFormed(flow);
    await runTwice(flowPath, flow, "verified");
  },
);

realTest(
  "Signal K admin UI: a journey recorded now in Chromium passes on a fresh instance, both forms",
  prepared.ignoredBecause + unlessAsked("SIGNALK_FRESH"),
  async (dir) => {
    const recorded = await withInstance(signalkLaunch(prepared.install!.prefix), async (b) => {
      await signalkFirstAdmin(b.origin);
      const { playwright, chromeHar } = await recordJourney(b.origin);
      return [playwright, chromeHar].map((har) => storedRecording(har, b.dir));
    });
    for (const [form, text] of [["pw", recorded[0]], ["cdp", recorded[1]]]) {
      assert.deepEqual(hostPaths(text), []);
      await Deno.mkdir(`${dir}/${form}`);
      await Deno.writeTextFile(`${dir}/${form}/journey.har`, text);
      const { flowPath, flow } = await convert([`${dir}/${form}/journey.har`], `${dir}/${form}`);
      await runTwice(flowPath, flow, `fresh ${form}`);
    }
  },
  ignoreBrowser,
);
