/**
 * `convert har` on the web UI of a real product nobody here wrote: Deluge
 * 2.0 from Debian (`deluged` + `deluge-web`, tests/real/deluge.ts). Its
 * single-page app talks JSON-RPC to `POST /json`, logs in with
 * `auth.login` and the web password as a positional parameter (the answer
 * sets a `_session_id` cookie), and connects the web server to the daemon
 * by a host id that each instance makes at random. The journey
 * (deluge_journey.ts): log in, decline changing the default password,
 * connect in the connection manager, add a torrent from a magnet link,
 * pause, resume, set an upload limit in the preferences, remove it, log out.
 *
 * Measured 2026-11-27 on the stored recording (39 steps), converted with the
 * default options and run on a fresh instance with only what the summary
 * asked: before, 39 of 39 passed with the password
 * sent as recorded, a literal credential in the flow; after
 * har_rpc_login_test.ts, LOGIN_PASSWORD is asked and 39 of 39 pass. The
 * host id is captured from `web.get_hosts`. A second run on the same
 * instance stopped at `web.connected` (7 of 39: the web server stays
 * connected after the logout); after har_rpc_state_test.ts, 39 of 39. The
 * chrome-har form passed 0 of 39 (lost empty and outer lists), 39 after
 * har_flattened_dropped_test.ts. A call Deluge refuses (HTTP 200, `error`
 * set) passed: 8 steps answered `result: null` had no body check; after
 * har_rpc_error_test.ts their `error: null` is checked (a probe with an
 * unknown method: 39 of 39 before, 24 after). The stored
 * recordings run without a browser; a new one is recorded in Chromium with
 * `DELUGE_FRESH=1`.
 */
import assert from "node:assert/strict";
import { ignoreBrowser } from "../support/browser.ts";
import { runCli } from "../support/cli.ts";
import { userEnv } from "../support/convert_apps.ts";
import { hostPaths } from "../support/record_har.ts";
import { runsOf } from "./measure.ts";
import { type Instance, realTest, unlessAsked, withInstance } from "./servers.ts";
import { delugeCall, delugeLaunch, delugeMissing, WEB_PASSWORD } from "./deluge.ts";
import { publicRecording, recordJourney } from "./deluge_journey.ts";

const missing = delugeMissing();
const FIXTURES = new URL("./fixtures/deluge/", import.meta.url).pathname;

/** What a flow sends: its text without the comments. */
function sent(flow: string): string {
  return flow.split("\n").filter((l) => !l.trimStart().startsWith("#")).join("\n");
}

/** The host id the recording's `web.connect` call sent (the recording instance's own). */
function connectedHost(har: string): string {
  for (const entry of JSON.parse(har).log.entries) {
    const body = entry.request.postData?.text ?? "";
    if (body.includes('"web.connect"')) return JSON.parse(body).params[0];
  }
  return "";
}

/** Converts `har` with `args` into `dir`: the flow's path, its text and the summary. */
async function convert(har: string, dir: string, args: string[] = []) {
  const flowPath = `${dir}/flow${args.join("")}.yaml`;
  const converted = await runCli(["convert", "har", har, "-o", flowPath, ...args]);
  assert.equal(converted.code, 0, converted.stderr);
  return { flowPath, flow: await Deno.readTextFile(flowPath), summary: converted.stderr };
}

/** Runs the flow `runs` times on `d` with what it asks: each run's steps and the torrents left. */
async function runOn(d: Instance, flowPath: string, flow: string, runs = 1) {
  const env = userEnv(
    flow,
    d.origin,
    (name) => name === "LOGIN_PASSWORD" ? WEB_PASSWORD : undefined,
  );
  const results = await runsOf(flowPath, env, runs, async ({ steps, passed }, n) => {
    const left = (await delugeCall(d.origin, "core.get_session_state", [])).length;
    console.error(
      `deluge, run ${n}: ${passed} of ${steps.length} steps passed on a fresh instance with ${
        Object.keys(env).join(", ")
      }; ${left} torrents left`,
    );
    return { left };
  });
  return { env, results };
}

realTest(
  "Deluge's web UI, recorded in Chromium, passes every step on a fresh instance, twice, with only the web password asked for",
  missing,
  async (dir) => {
    const har = `${FIXTURES}journey.pw.har`;
    const text = await Deno.readTextFile(har);
    assert.deepEqual(hostPaths(text), []);
    const { flowPath, flow, summary } = await convert(har, dir);
    assert.match(summary, /Set before running: LOGIN_PASSWORD\./);
    // The password is a parameter of the login call, asked for; the host id is the instance's.
    assert.match(flow, /params: \["\$\{ENV\.LOGIN_PASSWORD\}"\]/);
    assert.ok(!/params: \[deluge\]|"deluge"/.test(sent(flow)), flow);
    const hostId = connectedHost(text);
    assert.match(hostId, /^[0-9a-f]{32}$/);
    assert.ok(!sent(flow).includes(hostId), flow);
    await withInstance(delugeLaunch(), async (d) => {
      const { env, results } = await runOn(d, flowPath, flow, 2);
      assert.deepEqual(Object.keys(env).sort(), ["BASE_URL", "LOGIN_PASSWORD"], flow);
      for (const { run, steps, passed, left } of results) {
        assert.equal(steps.length, 39, flow);
        assert.equal(passed, steps.length, `${run.stdout}\n${flow}`);
        assert.equal(run.code, 0, run.stdout);
        assert.equal(left, 0, flow);
        assert.ok(!run.stdout.includes(`"${WEB_PASSWORD}"`), run.stdout);
      }
    });
  },
);

realTest(
  "Deluge: a torrent named with the password's word keeps its name, the password asked only where it is the login's",
  missing,
  async (dir) => {
    // Same length as the recorded name, so chrome-har's sizes stay true (issue 52, class 7).
    const named = "flowrun-deluge-sample";
    const text = (await Deno.readTextFile(`${FIXTURES}journey.pw.har`))
      .replaceAll("flowrun-magnet-sample", named);
    await Deno.writeTextFile(`${dir}/named.har`, text);
    const { flowPath, flow, summary } = await convert(`${dir}/named.har`, dir);
    assert.match(summary, /Set before running: LOGIN_PASSWORD\./);
    assert.ok(sent(flow).includes(`dn=${named}`) && !/RECORDED_SECRET/.test(flow), flow);
    await withInstance(delugeLaunch(), async (d) => {
      const { results: [{ run, steps, passed, left }] } = await runOn(d, flowPath, flow);
      assert.equal(passed, steps.length, `${run.stdout}\n${flow}`);
      assert.ok(steps.length === 39 && left === 0, flow);
    });
  },
);

realTest(
  "Deluge: chrome-har's recording of the same journey passes every step too, once chrome-har's lost empty lists are read back",
  missing,
  async (dir) => {
    const { flowPath, flow } = await convert(`${FIXTURES}journey.cdp.har`, dir);
    await withInstance(delugeLaunch(), async (d) => {
      const { results: [{ run, steps, passed, left }] } = await runOn(d, flowPath, flow);
      assert.equal(passed, steps.length, `${run.stdout}\n${flow}`);
      assert.ok(steps.length >= 30 && left === 0, flow);
    });
  },
);

realTest(
  "Deluge: --verify against a live instance passes every step",
  missing,
  async (dir) => {
    await withInstance(delugeLaunch(), async (d) => {
      const flowPath = `${dir}/verified.yaml`;
      const verified = await runCli(
        ["convert", "har", `${FIXTURES}journey.pw.har`, "--verify", d.origin, "-o", flowPath],
        { env: { LOGIN_PASSWORD: WEB_PASSWORD } },
      );
      console.error(`deluge --verify: ${/^Verified[^\n]*/m.exec(verified.stderr)?.[0]}`);
      assert.equal(verified.code, 0, verified.stderr);
      assert.match(verified.stderr, /Verified 39 steps against \S+: all pass\./);
    });
  },
);

realTest(
  "Deluge: a call the server refuses (HTTP 200, `error` set) fails its step, as its recorded `error: null` is checked",
  missing,
  async (dir) => {
    const { flowPath, flow } = await convert(`${FIXTURES}journey.pw.har`, dir);
    // A probe, not a user's edit: a method Deluge does not know, answered 200 with an error.
    const refused = flow.replace("method: core.pause_torrent\n", "method: core.pause_torrentz\n");
    assert.notEqual(refused, flow);
    await Deno.writeTextFile(flowPath, refused);
    await withInstance(delugeLaunch(), async (d) => {
      const { results: [{ run, steps, passed }] } = await runOn(d, flowPath, refused);
      console.error(`deluge, refused call: ${passed} of ${steps.length} passed`);
      assert.notEqual(run.code, 0, run.stdout);
      assert.ok(passed < steps.length, run.stdout);
      assert.match(run.stdout, /\$\.json\.error/, run.stdout);
    });
  },
);

realTest(
  "Deluge: a journey recorded now in Chromium passes on a fresh instance",
  missing + unlessAsked("DELUGE_FRESH"),
  async (dir) => {
    const har = await withInstance(delugeLaunch(), async (a) => {
      const recorded = await recordJourney(a.origin);
      return publicRecording(recorded.playwright, a.dir);
    });
    assert.deepEqual(hostPaths(har), []);
    await Deno.writeTextFile(`${dir}/journey.har`, har);
    const { flowPath, flow } = await convert(`${dir}/journey.har`, dir);
    await withInstance(delugeLaunch(), async (d) => {
      const { results: [{ run, steps, passed }] } = await runOn(d, flowPath, flow);
      assert.ok(steps.length >= 30 && passed === steps.length, `${run.stdout}\n${flow}`);
    });
  },
  ignoreBrowser,
);
