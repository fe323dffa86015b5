/**
 * `convert har` on the web GUI of a real product nobody here wrote:
 * Syncthing 1.19 from Debian (tests/real/syncthing.ts). Its AngularJS app
 * calls `/rest/…` guarded by a CSRF pair whose NAME is the instance's: the
 * page sets the cookie `CSRF-Token-<first 5 characters of the device id>`
 * and the app sends its value in `X-CSRF-Token-<the same 5>`. The journey
 * (syncthing_journey.ts): decline usage reporting, add a folder (its path is
 * the home `/rest/system/status` answers and the label), change its rescan
 * interval, add a remote device, rename this device, remove both; every
 * save is a `PUT /rest/config` of the whole config (this device's id, the
 * API key, `$$hashKey` counters of AngularJS).
 *
 * Measured 2026-11-26 on the stored recording (61 steps; 73 before the
 * event long polls were dropped):
 * - before: on a fresh instance 0 passed (the cookie captured by its
 *   recorded name failed the first step) and nine `$$hashKey` variables
 *   were asked; on an instance of the recorded device (its key pair, all
 *   else new) the two unanswered long polls waited 30 s each, the other
 *   event long polls (`/rest/events?since=N`, answered when something
 *   happens, which the browser's parallel calls caused) waited for the
 *   server's 60 s, and the new folder was created at the recorded home's
 *   path (/srv/…), not the instance's.
 * - then (har_unanswered, har_long_polls, har_handed_path_prefix,
 *   har_lookup_keys, har_instance_cookie_name tests): only BASE_URL is
 *   asked; on a fresh instance the page passed with the cookie captured by
 *   pattern, and every `/rest` step was refused 403: a flow's header names
 *   could not hold an expression, so `X-CSRF-Token-2EWQW` was sent as
 *   recorded. On an instance of the recorded device all 61 steps passed.
 * - now: a header's name may hold an expression, so the header is named by
 *   the same capture as the cookie; the device stats' answer, keyed by the
 *   recorded device's id, is not checked for that key; and the piece, the
 *   device's id the GUI shows, is no secret. All 61 steps pass on a fresh
 *   instance; `--verify` says all pass on an instance of the recorded
 *   device (on a fresh one it repaired 7 steps in 1 run of 4).
 * - the 7 repairs (issue 52): every config write sends the GUI's address
 *   back, and `syncthing generate` writes 127.0.0.1:8384 there only when
 *   that port is free a moment, else a random one. On such an instance
 *   `--verify` rightly makes the seven writes send the address the config
 *   read answered; the flow as converted moves the GUI, which restarts its
 *   listener (the next request was refused in 1 run of 3: 17 of 61
 *   passed). The instances now say their GUI address: on a fresh one with
 *   8384 `--verify` says all pass with no repair; with another address, the
 *   seven repairs, and the verified flow keeps that address. (Syncthing
 *   lists its themes from a Go map, in another order on some starts: the
 *   same writes then send the live list too, seven repairs more.)
 *
 * The stored recording runs without a browser; a new one is recorded in
 * Chromium with `SYNCTHING_FRESH=1`.
 */
import assert from "node:assert/strict";
import { ignoreBrowser } from "../support/browser.ts";
import { runCli } from "../support/cli.ts";
import { userEnv } from "../support/convert_apps.ts";
import { readReport } from "./measure.ts";
import { type Instance, realTest, start, unlessAsked } from "./servers.ts";
import { syncthingLaunch, syncthingMissing } from "./syncthing.ts";

/** A GUI address other than the recorded 8384, as `generate` writes when 8384 is taken. */
const MOVED_GUI = "127.0.0.1:28384";
import { FOLDER_LABEL, publicRecording, recordJourney } from "./syncthing_journey.ts";

const missing = syncthingMissing();
const FIXTURES = new URL("./fixtures/syncthing/", import.meta.url).pathname;
/** The API key the recorded instance's config answered (its GUI sends it back in every save). */
const RECORDED_API_KEY = "iKZvYPmZes9UHVnP7afmwrnrNtfn69Xu";

/**
 * A fresh instance (of the device whose key pair is in `identity`, when
 * given; its config's GUI address `gui`), stopped after `fn`.
 */
async function withInstance<T>(
  identity: string | undefined,
  fn: (s: Instance) => Promise<T>,
  gui?: string,
): Promise<T> {
  const instance = await start(syncthingLaunch(identity, gui));
  try {
    return await fn(instance);
  } finally {
    await instance.close();
  }
}

/** What a flow sends: its text without the comments (which quote the recording). */
function sent(flow: string): string {
  return flow.split("\n").filter((l) => !l.trimStart().startsWith("#")).join("\n");
}

/** Converts `har` with `args` and runs the flow on a fresh instance with only what it asks. */
async function convertAndRun(
  har: string,
  dir: string,
  identity?: string,
  args: string[] = [],
  gui?: string,
) {
  const flowPath = `${dir}/flow${args.length}${identity ? ".same" : ""}.yaml`;
  const converted = await runCli(["convert", "har", har, "-o", flowPath, ...args]);
  assert.equal(converted.code, 0, converted.stderr);
  const flow = await Deno.readTextFile(flowPath);
  return await withInstance(identity, async (s) => {
    const env = userEnv(flow, s.origin, () => undefined);
    const run = await runCli(["run", flowPath, "--report-json", `${flowPath}.json`], { env });
    const { steps } = await readReport(`${flowPath}.json`);
    const passed = steps.filter((x) => x.status === "passed").length;
    const config = await Deno.readTextFile(`${s.dir}/home/config.xml`);
    const folderMade = await Deno.stat(`${s.dir}/${FOLDER_LABEL}`).then(() => true, () => false);
    console.error(
      `syncthing${identity ? " (the recorded device)" : ""} ${
        args.join(" ")
      }: ${passed} of ${steps.length} steps passed with ${Object.keys(env).join(", ")}`,
    );
    return { converted, flow, env, run, steps, passed, config, folderMade };
  }, gui);
}

realTest(
  "Syncthing's GUI, recorded in Chromium: only the base URL is asked, and every step passes on a fresh instance, its instance-named CSRF cookie and header included",
  missing,
  async (dir) => {
    const har = `${FIXTURES}journey.pw.har`;
    const text = await Deno.readTextFile(har);
    assert.ok(!/\/(tmp|root|work)\//.test(text), "the recording names a path of this machine");
    const { converted, flow, env, steps, passed } = await convertAndRun(har, dir);
    assert.deepEqual(Object.keys(env), ["BASE_URL"], flow);
    assert.match(converted.stderr, /unanswered \(still open when the recording ended\) 1/);
    assert.match(converted.stderr, /long poll \(held until something happened\) 12/);
    // The cookie is captured with its name from Set-Cookie; the header is named by the capture.
    assert.match(flow, /\{ header: set-cookie, regex: /);
    assert.match(
      flow,
      /cookie: CSRF-Token-\$\{steps\.open_home\.capture\.instance\}=\$\{steps\.open_home\.capture\.csrf_token\}/,
    );
    assert.match(flow, /"x-csrf-token-\$\{steps\.open_home\.capture\.instance\}":/);
    // The home the recording's status answered is never sent: the folder's path is a capture.
    assert.ok(!sent(flow).includes("/srv/syncthing-"), flow);
    assert.equal(steps.length, 61, flow);
    assert.equal(steps[0].name, "open_home");
    assert.equal(passed, steps.length, flow);
  },
);

realTest(
  "Syncthing: on an instance of the recorded device (all else new) every step passes, and the folder is made in that instance's home",
  missing,
  async (dir) => {
    const har = `${FIXTURES}journey.pw.har`;
    const same = await convertAndRun(har, dir, FIXTURES);
    assert.deepEqual(Object.keys(same.env), ["BASE_URL"], same.flow);
    assert.equal(same.steps.length, 61, same.flow);
    assert.ok(!sent(same.flow).includes("/srv/syncthing-"), same.flow);
    assert.match(same.flow, /path: \$\{steps\.get_status\.capture\.tilde\}\/flowrun-photos/);
    assert.equal(same.passed, same.steps.length, `${same.run.stdout}\n${same.flow}`);
    assert.equal(same.run.code, 0, same.run.stdout);
    // The journey's writes took: this device renamed, the folder and the remote device gone,
    // and the folder made under the instance's own home.
    assert.match(same.config, /<device id="2EWQW[^"]*" name="flowrun-box"/);
    assert.ok(!/<folder id="[^"]+"/.test(same.config) && !same.config.includes("5QV275M"));
    assert.ok(same.folderMade, "the folder was not made in the instance's home");
    // Every config write sent the instance's own API key (read from its config), not the
    // recorded one, which would have replaced it.
    assert.ok(!same.config.includes(RECORDED_API_KEY), same.config);
    assert.match(same.config, /<apikey>[A-Za-z0-9]{32}<\/apikey>/);
  },
);

realTest(
  "Syncthing: --verify against a live instance of the recorded device passes, and the verified flow passes there",
  missing,
  async (dir) => {
    await withInstance(FIXTURES, async (s) => {
      const flowPath = `${dir}/verified.yaml`;
      const har = `${FIXTURES}journey.pw.har`;
      const args = ["convert", "har", har, "--verify", s.origin, "-o", flowPath];
      const verified = await runCli(args);
      console.error(`syncthing --verify: ${/^Verified[^\n]*/m.exec(verified.stderr)?.[0]}`);
      assert.equal(verified.code, 0, verified.stderr);
      assert.match(verified.stderr, /Verified 61 steps against \S+: all pass\./);
    });
    // A second instance of the device: the verified flow is no recording of the first one.
    await withInstance(FIXTURES, async (s) => {
      const run = await runCli(["run", `${dir}/verified.yaml`], { env: { BASE_URL: s.origin } });
      assert.equal(run.code, 0, run.stdout);
    });
  },
);

/** `convert har --verify` of the stored recording against a fresh instance (another device). */
async function verifyFresh(flowPath: string, gui?: string) {
  return await withInstance(undefined, async (s) => {
    const har = `${FIXTURES}journey.pw.har`;
    const verified = await runCli(["convert", "har", har, "--verify", s.origin, "-o", flowPath]);
    console.error(
      `syncthing --verify (fresh, GUI ${gui ?? "8384"}): ${
        /^Verified[^\n]*/m.exec(verified.stderr)?.[0]
      }`,
    );
    return verified;
  }, gui);
}

realTest(
  "Syncthing: --verify against a fresh instance (another device) passes with no repair",
  missing,
  async (dir) => {
    const verified = await verifyFresh(`${dir}/verified.yaml`);
    assert.equal(verified.code, 0, verified.stderr);
    assert.match(verified.stderr, /Verified 61 steps against \S+: all pass\./);
    assert.doesNotMatch(verified.stderr, /^verify: /m);
  },
);

realTest(
  "Syncthing: --verify against a fresh instance whose config's GUI address is not the recorded one makes the seven config writes send it, and the verified flow keeps it",
  missing,
  async (dir) => {
    const flowPath = `${dir}/verified.yaml`;
    const verified = await verifyFresh(flowPath, MOVED_GUI);
    assert.equal(verified.code, 0, verified.stderr);
    const repaired = [...verified.stderr.matchAll(/^verify: repaired "([^"]+)": (.*)$/gm)];
    const count = /Verified 61 steps against \S+: all pass after (\d+) repairs\./.exec(
      verified.stderr,
    );
    assert.equal(Number(count?.[1]), repaired.length, verified.stderr);
    // The seven writes send the address; Syncthing also lists its themes from a Go map, in
    // another order on some starts, and then the same writes send the live list too.
    const address = repaired.filter(([, , text]) => text.includes("capture.address}"));
    assert.deepEqual(address.map((m) => m[1]), [
      "update_config",
      ...[2, 3, 4, 5, 6, 7].map((n) => `update_config_${n}`),
    ]);
    for (const [, , text] of address) {
      assert.match(
        text,
        /^sends \$\{steps\.get_config\.capture\.address\}: "address" in the JSON body of step "get_config" changed live$/,
      );
    }
    for (const [, step, text] of repaired.filter((m) => !address.includes(m))) {
      assert.match(step, /^update_config(_\d)?$/);
      assert.match(
        text,
        /^sends \$\{steps\.get_themes_json\.capture\.themes\}: "themes" in the JSON body of step "get_themes_json" changed live$/,
      );
    }
    // The flow as converted writes the recorded 8384 there (and the GUI's listener restarts:
    // the next request was refused in some runs, so its outcome is not asserted).
    const plain = await convertAndRun(`${FIXTURES}journey.pw.har`, dir, undefined, [], MOVED_GUI);
    assert.match(plain.config, /<gui\b[^>]*>\s*<address>127\.0\.0\.1:8384<\/address>/);
    // Another such instance: every step passes and its GUI address stays its own.
    await withInstance(undefined, async (s) => {
      const run = await runCli(["run", flowPath], { env: { BASE_URL: s.origin } });
      assert.equal(run.code, 0, run.stdout);
      const config = await Deno.readTextFile(`${s.dir}/home/config.xml`);
      assert.match(config, new RegExp(`<gui\\b[^>]*>\\s*<address>${MOVED_GUI}</address>`));
    }, MOVED_GUI);
  },
);

realTest(
  "Syncthing: a journey recorded now in Chromium passes on an instance of its device",
  missing + unlessAsked("SYNCTHING_FRESH"),
  async (dir) => {
    const identity = `${dir}/identity`;
    await Deno.mkdir(identity);
    const har = await withInstance(undefined, async (s) => {
      const recorded = await recordJourney(s.origin);
      for (const file of ["cert.pem", "key.pem"]) {
        await Deno.copyFile(`${s.dir}/home/${file}`, `${identity}/${file}`);
      }
      return publicRecording(recorded.playwright, s.dir);
    });
    assert.ok(!/\/(tmp|root|work)\//.test(har), "the recording names a path of this machine");
    await Deno.writeTextFile(`${dir}/journey.har`, har);
    const { flow, env, run, steps, passed } = await convertAndRun(
      `${dir}/journey.har`,
      dir,
      identity,
    );
    assert.deepEqual(Object.keys(env), ["BASE_URL"], flow);
    assert.ok(steps.length >= 40 && passed === steps.length, `${run.stdout}\n${flow}`);
  },
  ignoreBrowser,
);
