/**
 * `convert har` on a monitoring server's web UI nobody here wrote:
 * Prometheus 2.42 from Debian bookworm (tests/real/prometheus.ts), its
 * classic UI (jQuery) over the JSON API under `/api/v1/`. The journey
 * (prometheus_journey.ts): the graph page, a metric picked from its list
 * and run as an instant query and as a range query, the autocomplete, the
 * Alerts, Rules, Targets, Service Discovery and Status pages, the TSDB
 * status through the API, and a configuration reload (`POST /-/reload`).
 * No login: the flow asks for nothing.
 *
 * Its reads carry the moment they were made: `time=`, `start=` an hour
 * before `end=`, jQuery's `_=` in milliseconds. Measured 2026-11-28 on the
 * stored recordings (Chromium, 9 steps each, the pages being HTML are
 * dropped), converted with the default options and run on a fresh server:
 * before, 9 of 9 in both forms, twice, `--verify` all pass, but every query
 * asked for the recording's moment (the checks are the answer's shape, so
 * an empty answer passed). After (har_sent_times_test.ts): the same counts,
 * and each of those values is the clock when the step runs
 * (`${NOW.UNIX-1h}`). A new recording is made in Chromium with
 * `PROMETHEUS_FRESH=1`.
 */
import assert from "node:assert/strict";
import { ignoreBrowser } from "../support/browser.ts";
import { runCli } from "../support/cli.ts";
import { hostPaths } from "../support/record_har.ts";
import { runsOf } from "./measure.ts";
import { prometheusLaunch, prometheusMissing } from "./prometheus.ts";
import { recordJourney } from "./prometheus_journey.ts";
import { smallRecording } from "./rabbitmq_journey.ts";
import { realTest, unlessAsked, withInstance } from "./servers.ts";

const missing = prometheusMissing();
const FIXTURES = new URL("./fixtures/prometheus/", import.meta.url).pathname;
/** The steps each stored recording converts to. */
const STEPS = 9;

/**
 * Converts `har` with the default options, checks that nothing is asked and
 * that no recorded moment is sent, and runs it twice on one fresh server.
 */
async function convertAndRunTwice(har: string, dir: string) {
  const flowPath = `${dir}/${har.split("/").at(-1)}.yaml`;
  const converted = await runCli(["convert", "har", har, "-o", flowPath]);
  assert.equal(converted.code, 0, converted.stderr);
  assert.match(converted.stderr, /No environment variables are required\./, converted.stderr);
  const flow = await Deno.readTextFile(flowPath);
  const urls = flow.split("\n").filter((line) => /^\s*url:/.test(line)).join("\n");
  assert.equal(/[?&](?:time|start|end|_)=\d/.exec(urls), null, urls);
  assert.match(flow, /start=\$\{NOW\.UNIX-1h\}&end=\$\{NOW\.UNIX\}/, flow);
  return await withInstance(
    prometheusLaunch(),
    (server) =>
      runsOf(flowPath, { BASE_URL: server.origin }, 2, ({ steps, passed }, n) => {
        console.error(
          `prometheus ${
            har.split("/").at(-1)
          }, run ${n}: ${passed} of ${steps.length} steps passed`,
        );
        return Promise.resolve({});
      }),
  );
}

for (const form of ["pw", "cdp"]) {
  realTest(
    `Prometheus's web UI, recorded in Chromium (${
      form === "pw" ? "Playwright's HAR" : "chrome-har"
    }): every step passes on a fresh server and again on the same one, its queries at the time they are sent`,
    missing,
    async (dir) => {
      const har = `${FIXTURES}journey.${form}.har`;
      assert.deepEqual(hostPaths(await Deno.readTextFile(har)), []);
      for (const { run, steps, passed } of await convertAndRunTwice(har, dir)) {
        assert.equal(steps.length, STEPS);
        assert.equal(passed, STEPS, run.stdout);
        assert.equal(run.code, 0, run.stdout);
      }
    },
  );
}

realTest(
  "Prometheus: --verify against a fresh server passes, and the verified flow passes on another",
  missing,
  async (dir) => {
    const flowPath = `${dir}/verified.yaml`;
    const har = `${FIXTURES}journey.pw.har`;
    const verified = await withInstance(
      prometheusLaunch(),
      (server) => runCli(["convert", "har", har, "--verify", server.origin, "-o", flowPath]),
    );
    console.error(`prometheus --verify: ${/^Verified[^\n]*/m.exec(verified.stderr)?.[0]}`);
    assert.equal(verified.code, 0, verified.stderr);
    assert.match(verified.stderr, new RegExp(`Verified ${STEPS} steps against \\S+: all pass`));
    await withInstance(prometheusLaunch(), async (server) => {
      const run = await runCli(["run", flowPath], { env: { BASE_URL: server.origin } });
      assert.equal(run.code, 0, run.stdout);
    });
  },
);

realTest(
  "Prometheus: a journey recorded now in Chromium passes on a fresh server, twice",
  missing + unlessAsked("PROMETHEUS_FRESH"),
  async (dir) => {
    const recorded = await withInstance(prometheusLaunch(), async (server) => {
      // The graph page lists the metrics scraped so far: a fresh server has none for a moment.
      await new Promise((r) => setTimeout(r, 8_000));
      const made = await recordJourney(server.origin);
      const hide = (text: string) => text.replaceAll(server.dir, "/srv/prometheus");
      return { pw: hide(made.playwright), cdp: hide(made.chromeHar) };
    });
    for (const [form, text] of Object.entries(recorded)) {
      const har = `${dir}/${form}.har`;
      await Deno.writeTextFile(har, smallRecording(text));
      for (const { run, steps, passed } of await convertAndRunTwice(har, dir)) {
        assert.ok(steps.length >= STEPS && passed === steps.length, `${form}\n${run.stdout}`);
      }
    }
  },
  ignoreBrowser,
);
