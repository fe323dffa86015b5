/**
 * `convert har` on the web UI of a real product nobody here wrote whose API
 * is WebDAV with XML bodies: Radicale 3.1 from Debian (tests/real/radicale.ts).
 * The journey (radicale_journey.ts), recorded in Chromium: log in, create an
 * address book and a calendar (`MKCOL` with an XML body, at a path the page
 * makes up, a random UUID), rename the calendar (`PROPPATCH`), upload a
 * small `.ics` (`PUT` to another made-up path), delete the three (`DELETE`),
 * log out; each change is followed by the page's `PROPFIND` (`Depth: 1`),
 * answered `207 Multi-Status`. The page hands the typed user and password to
 * `XMLHttpRequest.open`, so both recordings hold them only in each URL's
 * user part, with no `Authorization` header.
 *
 * Measured 2026-11-26 on the stored recordings (16 steps): before, 0 passed
 * on a fresh instance (no credentials were sent: 401); after the URL's
 * credentials became the step's Basic auth (har_url_credentials_test.ts),
 * 8 (the upload was a `PUT` with no body, refused 400, the rest skipped);
 * after a body the recording does not hold became a placeholder file
 * (har_unrecorded_body_test.ts), 16 of 16 once the user's `.ics` is in it,
 * on a first and a second run on one instance (the made-up paths are
 * `${RANDOM.UUID}`, the run's own). The one variable asked besides the URL
 * is the Basic password. The stored recordings run without a browser; a
 * new one is recorded in Chromium with `RADICALE_FRESH=1`.
 */
import assert from "node:assert/strict";
import { ignoreBrowser } from "../support/browser.ts";
import { runCli } from "../support/cli.ts";
import { userEnv } from "../support/convert_apps.ts";
import { hostPaths } from "../support/record_har.ts";
import { runsOf } from "./measure.ts";
import { type Instance, realTest, unlessAsked, withInstance } from "./servers.ts";
import { RADICALE_USER, radicaleLaunch, radicaleMissing } from "./radicale.ts";
import { ICS_PATH, publicRecording, recordJourney } from "./radicale_journey.ts";

const missing = radicaleMissing();
const FIXTURES = new URL("./fixtures/radicale/", import.meta.url).pathname;
const { user: USER, password: PASSWORD } = RADICALE_USER;
const BASIC = btoa(`${USER}:${PASSWORD}`);

/** A fresh instance, stopped after `fn`. */
function withRadicale<T>(fn: (r: Instance) => Promise<T>): Promise<T> {
  return withInstance(radicaleLaunch(), fn);
}

/** What a flow sends: its text without the comments. */
function sent(flow: string): string {
  return flow.split("\n").filter((l) => !l.trimStart().startsWith("#")).join("\n");
}

/** The user's collections on the instance at `origin` (its `PROPFIND`, `Depth: 1`). */
async function collections(origin: string): Promise<string[]> {
  const answer = await fetch(`${origin}/${USER}/`, {
    method: "PROPFIND",
    headers: { authorization: `Basic ${BASIC}`, depth: "1" },
  });
  const text = await answer.text();
  const hrefs = [...text.matchAll(/<href>([^<]+)<\/href>/g)].map((m) => m[1]);
  return hrefs.filter((h) => new RegExp(`^/${USER}/[^/]+/$`).test(h));
}

/** The made-up collection paths a recording holds (the page's random UUIDs). */
function recordedPaths(har: string): string[] {
  const paths = har.matchAll(/\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\//g);
  return [...new Set([...paths].map((m) => m[0]))];
}

/**
 * Converts `har` with default options, runs the flow `runs` times on one fresh instance with
 * what the flow asks for (the password the user knows); `ics` puts the user's calendar file in
 * the upload's placeholder first, as the summary asks. Each run's steps and the collections left.
 */
async function convertAndRun(har: string, dir: string, ics: boolean, runs = 1) {
  const flowPath = `${dir}/flow.yaml`;
  const converted = await runCli(["convert", "har", har, "-o", flowPath]);
  assert.equal(converted.code, 0, converted.stderr);
  const flow = await Deno.readTextFile(flowPath);
  if (ics) await Deno.copyFile(ICS_PATH, `${dir}/uploads/upload.ics`);
  return await withRadicale(async (r) => {
    const env = userEnv(flow, r.origin, (n) => n === "BASIC_PASSWORD" ? PASSWORD : undefined);
    const results = await runsOf(flowPath, env, runs, async ({ steps, passed }, n) => {
      const left = await collections(r.origin);
      console.error(
        `radicale ${har.split("/").pop()}${
          ics ? "" : " (placeholder as written)"
        }, run ${n}: ${passed} of ${steps.length} steps passed on a fresh instance with ${
          Object.keys(env).join(", ")
        }; ${left.length} collections left`,
      );
      return { left };
    });
    return { converted, flow, env, results };
  });
}

for (const form of ["pw", "cdp"]) {
  realTest(
    `Radicale's web UI (WebDAV, XML bodies), recorded in Chromium (journey.${form}.har), passes every step twice on a fresh instance with the password asked and the user's .ics`,
    missing,
    async (dir) => {
      const har = `${FIXTURES}journey.${form}.har`;
      const text = await Deno.readTextFile(har);
      assert.deepEqual(hostPaths(text), []);
      const { converted, flow, env, results } = await convertAndRun(har, dir, true, 2);
      assert.deepEqual(Object.keys(env).sort(), ["BASE_URL", "BASIC_PASSWORD"], flow);
      assert.match(converted.stderr, /Set before running: BASIC_PASSWORD\./);
      assert.match(converted.stderr, /uploads\/upload\.ics[^\n]*placeholder/);
      // The password is asked, never written: not typed, not as base64 of user:password.
      for (const secret of [PASSWORD, BASIC]) {
        assert.ok(!flow.includes(secret) && !converted.stderr.includes(secret), flow);
      }
      assert.equal(
        flow.match(/basic:\n\s+username: ada\n\s+password: \$\{ENV\.BASIC_PASSWORD\}/g)?.length,
        16,
        flow,
      );
      // The page's made-up paths are the run's own: a second run makes new ones.
      const recorded = recordedPaths(text);
      assert.equal(recorded.length, 3, recorded.join(" "));
      for (const path of recorded) assert.ok(!sent(flow).includes(path), `${path}\n${flow}`);
      assert.equal(flow.match(/: \$\{RANDOM\.UUID\}$/gm)?.length, 3, flow);
      for (const { run, steps, passed, left } of results) {
        assert.equal(steps.length, 16, flow);
        assert.equal(passed, steps.length, `${run.stdout}\n${flow}`);
        assert.equal(run.code, 0, run.stdout);
        assert.deepEqual(left, [], flow);
        assert.ok(!run.stdout.includes(PASSWORD) && !run.stdout.includes(BASIC), run.stdout);
      }
    },
  );
}

realTest(
  "Radicale: as converted, the upload's placeholder is refused and says so; the steps before it pass",
  missing,
  async (dir) => {
    const { results: [{ run, steps, passed }] } = await convertAndRun(
      `${FIXTURES}journey.pw.har`,
      dir,
      false,
    );
    assert.equal(run.code, 1, run.stdout);
    assert.equal(passed, 8, run.stdout);
    const put = steps.find((s) => s.status === "failed");
    assert.equal(put?.request?.method, "PUT", run.stdout);
    assert.match(run.stdout, /file content not recorded: replace it/);
  },
);

/** `convert har --verify` on a fresh instance with `BASIC_PASSWORD` set; `ics` puts the user's file first. */
async function verifyOn(r: Instance, dir: string, ics: boolean) {
  const flowPath = `${dir}/verified.yaml`;
  if (ics) {
    await Deno.mkdir(`${dir}/uploads`, { recursive: true });
    await Deno.copyFile(ICS_PATH, `${dir}/uploads/upload.ics`);
  }
  const har = `${FIXTURES}journey.pw.har`;
  const verified = await runCli(["convert", "har", har, "--verify", r.origin, "-o", flowPath], {
    env: { BASIC_PASSWORD: PASSWORD },
  });
  console.error(
    `radicale --verify${ics ? "" : " (no file yet)"}: ${
      /^Verified[^\n]*/m.exec(verified.stderr)?.[0]
    }`,
  );
  assert.match(verified.stderr, /Set before running: BASIC_PASSWORD\./);
  const flow = await Deno.readTextFile(flowPath);
  assert.ok(!flow.includes(PASSWORD) && !flow.includes(BASIC), flow);
  return { verified, flowPath };
}

realTest(
  "Radicale: --verify passes all 16 with the user's .ics beside the flow, all but the upload and its delete with the placeholder, and asks for the password",
  missing,
  async (dir) => {
    await withRadicale(async (r) => {
      // The placeholder is refused: the flow is written and the exit code says a step failed.
      const { verified } = await verifyOn(r, `${dir}/first`, false);
      assert.equal(verified.code, 1, verified.stderr);
      assert.match(verified.stderr, /Verified 16 steps against \S+: 14 pass, 2 do not/);
      assert.match(verified.stderr, /could not make "update_ada" pass/);
    });
    await withRadicale(async (r) => {
      const { verified, flowPath } = await verifyOn(r, `${dir}/second`, true);
      assert.equal(verified.code, 0, verified.stderr);
      assert.match(verified.stderr, /Verified 16 steps against \S+: all pass\./);
      const env = { BASE_URL: r.origin, BASIC_PASSWORD: PASSWORD };
      const run = await runCli(["run", flowPath], { env });
      assert.equal(run.code, 0, run.stdout);
    });
  },
);

realTest(
  "Radicale: a journey recorded now in Chromium passes on a fresh instance",
  missing + unlessAsked("RADICALE_FRESH"),
  async (dir) => {
    const recorded = await withRadicale((r) => recordJourney(r.origin));
    for (const [form, har] of [["pw", recorded.playwright], ["cdp", recorded.chromeHar]]) {
      const text = publicRecording(har);
      assert.deepEqual(hostPaths(text), []);
      await Deno.mkdir(`${dir}/${form}`);
      await Deno.writeTextFile(`${dir}/${form}/journey.har`, text);
      const { flow, results } = await convertAndRun(
        `${dir}/${form}/journey.har`,
        `${dir}/${form}`,
        true,
      );
      const [{ run, steps, passed }] = results;
      assert.ok(steps.length >= 16 && passed === steps.length, `${run.stdout}\n${flow}`);
    }
  },
  ignoreBrowser,
);
