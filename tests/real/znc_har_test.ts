/**
 * `convert har` on ZNC 1.8's web admin from Debian (tests/real/znc.ts): a
 * login form without a token, a session cookie named for the listener's
 * port (`43883-SessionId`, so another instance's is another cookie), and a
 * `_CSRF_Check` token in every form after it; each form answered by a
 * redirect, a refused one by a 200 error page ("No such user") or a 403. The
 * journey (znc_journey.ts): log in, change the admin's own real name, add a
 * user (its password typed twice), give it a network and a channel, edit the
 * user, delete the channel, the network and the user, set the global MOTD
 * and clear it, log out.
 *
 * What each run did is read from the config ZNC writes back after every
 * change: the admin's new real name, no user left behind, no MOTD. That the
 * user was made is shown by its deletion: ZNC answers 302 only for a user
 * that exists.
 *
 * Measured 2026-11-27 on the stored recordings (37 steps from Playwright's
 * HAR, 39 from chrome-har's), converted with the default options and run on
 * a fresh instance with only what the summary asks (`LOGIN_PASSWORD`):
 * every step passed on the first run and again on the same instance, both
 * forms, and `--verify` repaired nothing; the new user's password is a
 * var of the run's own, the port in the cookie's name is captured. The
 * user's form was named `login_2` (it sends a password); after
 * tests/convert/har_account_form_name_test.ts it is named for its path.
 * A new recording is made in Chromium with `ZNC_FRESH=1`.
 */
import assert from "node:assert/strict";
import { withInstance } from "./servers.ts";
import { LOGIN, zncLaunch, zncMissing } from "./znc.ts";
import { MADE, recordJourney } from "./znc_journey.ts";
import {
  type Converted,
  convertStored,
  type LoginApp,
  loginAppTests,
  runAsUser,
} from "./har_login_app.ts";

const missing = zncMissing();
const FIXTURES = new URL("./fixtures/znc/", import.meta.url).pathname;
const ZNC: LoginApp = { name: "znc", launch: zncLaunch, password: LOGIN.password };

/** What the instance's config holds after a run: the admin's real name, its users, its MOTD. */
async function config(dir: string): Promise<{ realName: string; users: string; motd: string }> {
  const text = await Deno.readTextFile(`${dir}/data/configs/znc.conf`);
  return {
    realName: /^\s*RealName = (.*)$/m.exec(text)?.[1] ?? "",
    users: [...text.matchAll(/^<User (\S+)>/gm)].map((m) => m[1]).join(" "),
    motd: [...text.matchAll(/^\s*Motd = (.*)$/gm)].map((m) => m[1]).join(" "),
  };
}

/** Converts the stored recording `name` and runs it twice on one fresh instance. */
async function storedPassesTwice(name: string, dir: string): Promise<void> {
  const { flowPath, flow }: Converted = await convertStored(ZNC, `${FIXTURES}${name}`, dir);
  assert.ok(!flow.includes(MADE.userPassword), flow);
  assert.doesNotMatch(flow, /name: login_\d/, flow);
  await withInstance(ZNC.launch(), async (w) => {
    const { env, results } = await runAsUser(ZNC, w, flowPath, flow, 2, () => config(w.dir));
    assert.deepEqual(Object.keys(env).sort(), ["BASE_URL", "LOGIN_PASSWORD"], flow);
    for (const { run, steps, passed, realName, users, motd } of results) {
      assert.ok(steps.length >= 37, flow);
      assert.equal(passed, steps.length, `${run.stdout}\n${flow}`);
      assert.equal(run.code, 0, run.stdout);
      assert.ok(!run.stdout.includes(ZNC.password), run.stdout);
      assert.deepEqual({ realName, users, motd }, {
        realName: MADE.ownName,
        users: LOGIN.username,
        motd: "",
      });
    }
  });
}

loginAppTests({
  label: "ZNC",
  app: ZNC,
  fixtures: FIXTURES,
  missing,
  steps: 37,
  storedPassesTwice,
  record: recordJourney,
  freshMin: 35,
});
