/**
 * `convert har` on a server-rendered PHP app nobody here wrote: DokuWiki
 * 2022-07-31a from Debian (tests/real/dokuwiki.ts), run by `php -S`. Every
 * request of its own is a page: the login form posts `u`, `p` and a hidden
 * `sectok` and answers 302 with a login cookie named `DW` + an MD5 of the
 * instance's path and port; the editor holds hidden `sectok`, `date` (the
 * revision the edit starts from) and `changecheck`, renews its lock through
 * `lib/exe/ajax.php` (an XHR answered with HTML), and the save answers 302,
 * or 200 with a conflict when `date` is not the current revision's; the
 * revisions page links the difference by the older revision's timestamp;
 * the logout is a link carrying the `sectok`. The journey
 * (dokuwiki_journey.ts): log in, create a page, edit it again, open its
 * revisions and the difference, log out.
 *
 * Measured 2026-11-26 on the stored recordings (15 steps each), converted
 * with the default options and run on a fresh instance with the one
 * variable the summary asks for: before, the conversion failed ("The HAR has
 * no API requests", exit 2: every page was dropped as an HTML document).
 * Kept as pages (har_rendered_app_test.ts), the login's cookie was captured
 * by its recorded name, which a fresh instance on another port does not
 * set: 1 of 15 (har_digest_cookie_name_test.ts); then the second save sent
 * the recorded `date` and was a conflict: 9 of 15
 * (har_hidden_state_test.ts); and the password was written into the flow,
 * the summary asking for nothing (har_password_input_test.ts). After them,
 * 15 of 15 on the first run and on a second run on the same instance, the
 * password asked as LOGIN_PASSWORD. The stored recordings run without a
 * browser; a new one is recorded in Chromium with `DOKUWIKI_FRESH=1`.
 */
import assert from "node:assert/strict";
import { ignoreBrowser } from "../support/browser.ts";
import { runCli } from "../support/cli.ts";
import { userEnv } from "../support/convert_apps.ts";
import { hostPaths } from "../support/record_har.ts";
import { runsOf } from "./measure.ts";
import { type Instance, realTest, unlessAsked, withInstance } from "./servers.ts";
import { dokuwikiLaunch, dokuwikiMissing, LOGIN } from "./dokuwiki.ts";
import { PAGE, recordJourney } from "./dokuwiki_journey.ts";
import { publicRecording } from "./unleash_journey.ts";

const missing = dokuwikiMissing();
const FIXTURES = new URL("./fixtures/dokuwiki/", import.meta.url).pathname;

/** Converts `har` with the default options into `dir`: the flow and the summary. */
async function convert(har: string, dir: string) {
  const flowPath = `${dir}/${har.split("/").at(-1)}.yaml`;
  const converted = await runCli(["convert", "har", har, "-o", flowPath]);
  assert.equal(converted.code, 0, converted.stderr);
  return { flowPath, flow: await Deno.readTextFile(flowPath), summary: converted.stderr };
}

/** The text of the journey's page on `origin`, as a visitor reads its source. */
async function pageText(origin: string): Promise<string> {
  const res = await fetch(`${origin}/doku.php?id=${PAGE.id}&do=export_raw`);
  return await res.text();
}

/** Runs the flow at `flowPath` `runs` times on `w` with only what its header asks for. */
async function runOn(w: Instance, flowPath: string, flow: string, runs: number) {
  const env = userEnv(
    flow,
    w.origin,
    (name) => name === "LOGIN_PASSWORD" ? LOGIN.password : undefined,
  );
  const results = await runsOf(flowPath, env, runs, async ({ steps, passed }, n) => {
    const text = await pageText(w.origin);
    console.error(
      `dokuwiki, run ${n}: ${passed} of ${steps.length} steps passed on a fresh instance with ${
        Object.keys(env).join(", ")
      }`,
    );
    return { text };
  });
  return { env, results };
}

/** Converts the stored recording `name` and runs it twice on one fresh instance: every step passes. */
async function passesTwice(name: string, dir: string): Promise<void> {
  const har = `${FIXTURES}${name}`;
  assert.deepEqual(hostPaths(await Deno.readTextFile(har)), []);
  const { flowPath, flow, summary } = await convert(har, dir);
  assert.match(summary, /Set before running: LOGIN_PASSWORD\./);
  assert.ok(!flow.includes(LOGIN.password), flow);
  await withInstance(dokuwikiLaunch(), async (w) => {
    const { env, results } = await runOn(w, flowPath, flow, 2);
    assert.deepEqual(Object.keys(env).sort(), ["BASE_URL", "LOGIN_PASSWORD"], flow);
    for (const { run, steps, passed, text } of results) {
      assert.equal(steps.length, 15, flow);
      assert.equal(passed, steps.length, `${run.stdout}\n${flow}`);
      assert.equal(run.code, 0, run.stdout);
      assert.equal(text.replaceAll("\r\n", "\n").trimEnd(), PAGE.second.trimEnd());
      assert.ok(!run.stdout.includes(LOGIN.password), run.stdout);
    }
  });
}

realTest(
  "DokuWiki, recorded in Chromium (Playwright's HAR), passes every step on a fresh instance and again on the same one, only the password asked for",
  missing,
  (dir) => passesTwice("journey.pw.har", dir),
);

realTest(
  "DokuWiki: chrome-har's recording of the same journey passes every step too, twice",
  missing,
  (dir) => passesTwice("journey.cdp.har", dir),
);

realTest(
  "DokuWiki: --verify against a live instance repairs nothing it need not and the verified flow passes on another fresh instance",
  missing,
  async (dir) => {
    const flowPath = `${dir}/verified.yaml`;
    const verified = await withInstance(dokuwikiLaunch(), async (w) =>
      await runCli(
        ["convert", "har", `${FIXTURES}journey.pw.har`, "--verify", w.origin, "-o", flowPath],
        { env: { LOGIN_PASSWORD: LOGIN.password } },
      ));
    console.error(`dokuwiki --verify: ${/^Verified[^\n]*/m.exec(verified.stderr)?.[0]}`);
    assert.equal(verified.code, 0, verified.stderr);
    assert.doesNotMatch(verified.stderr, /could not make/, verified.stderr);
    await withInstance(dokuwikiLaunch(), async (w) => {
      const env = { BASE_URL: w.origin, LOGIN_PASSWORD: LOGIN.password };
      const run = await runCli(["run", flowPath], { env });
      assert.equal(run.code, 0, run.stdout);
      assert.match(run.stdout, /15 steps: 15 passed/);
    });
  },
);

realTest(
  "DokuWiki: a journey recorded now in Chromium passes on a fresh instance",
  missing + unlessAsked("DOKUWIKI_FRESH"),
  async (dir) => {
    const recorded = await withInstance(dokuwikiLaunch(), async (a) => {
      const { playwright, chromeHar } = await recordJourney(a.origin);
      return { playwright: publicRecording(playwright), chromeHar: publicRecording(chromeHar) };
    });
    for (const [form, har] of Object.entries(recorded)) {
      assert.deepEqual(hostPaths(har), [], form);
      await Deno.writeTextFile(`${dir}/${form}.har`, har);
      const { flowPath, flow } = await convert(`${dir}/${form}.har`, dir);
      await withInstance(dokuwikiLaunch(), async (w) => {
        const { results } = await runOn(w, flowPath, flow, 2);
        for (const { run, steps, passed } of results) {
          assert.ok(
            steps.length >= 13 && passed === steps.length,
            `${form}\n${run.stdout}\n${flow}`,
          );
        }
      });
    }
  },
  ignoreBrowser,
);
