/**
 * `convert har` on a message broker's admin nobody here wrote: RabbitMQ
 * 3.10's management UI from Debian bookworm (tests/real/rabbitmq.ts), a
 * single-page app (Sammy.js) over the JSON API under `/api/`. Its login
 * makes no request: the page keeps base64 of `user:password` in its own
 * cookie `m` and sends `Authorization: Basic …` on every API call; the
 * browser attaches the cookie to every request, the page's templates
 * (`/js/tmpl/*.ejs?<random>`) included. The journey (rabbitmq_journey.ts):
 * log in, add a virtual host, a queue and an exchange in it, bind them,
 * publish a message and get it, add a user and give them permissions,
 * delete the user, the exchange, the queue and the virtual host, log out.
 *
 * Measured 2026-11-27 on the stored recordings (Chromium, 100 steps each),
 * converted with the default options and run on a fresh node with only
 * what the summary asks: before, 46 of 100 in both forms, with
 * BASIC_PASSWORD, SESSION_COOKIE (the page's cookie `m`) and
 * UPDATE_MARINA_PASSWORD (the new user's password) asked; the read of the
 * new queue expected its statistics (`consumers`, `memory`…), which the
 * node's collector adds seconds after the queue is made. After
 * (har_filled_later_test.ts, har_basic_cookie_test.ts,
 * har_basic_chosen_password_test.ts): 100 of 100 in both forms, twice on
 * one node, with only BASIC_PASSWORD; see docs/real-servers.md. The stored
 * recordings run without a browser; a new one is recorded in Chromium with
 * `RABBITMQ_FRESH=1`.
 */
import assert from "node:assert/strict";
import { ignoreBrowser } from "../support/browser.ts";
import { runCli } from "../support/cli.ts";
import { userEnv } from "../support/convert_apps.ts";
import { hostPaths } from "../support/record_har.ts";
import { runsOf } from "./measure.ts";
import { ADMIN, rabbitmqLaunch, rabbitmqMissing } from "./rabbitmq.ts";
import { MADE, recordJourney, smallRecording } from "./rabbitmq_journey.ts";
import { realTest, unlessAsked, withInstance } from "./servers.ts";

const missing = rabbitmqMissing();
const FIXTURES = new URL("./fixtures/rabbitmq/", import.meta.url).pathname;
/** The steps each stored recording converts to. */
const STEPS = 100;
const BASIC = btoa(`${ADMIN.username}:${ADMIN.password}`);

/** What the node at `origin` holds of the journey's: its virtual host and its user. */
async function left(origin: string) {
  const headers = { authorization: `Basic ${BASIC}` };
  const names = async (path: string) => {
    const answer = await fetch(`${origin}/api/${path}`, { headers });
    return ((await answer.json()) as { name: string }[]).map((x) => x.name);
  };
  return {
    vhost: (await names("vhosts")).includes(MADE.vhost),
    user: (await names("users")).includes(MADE.user.username),
  };
}

/** The values no flow may hold: the passwords typed, the Basic credential, the page's cookie. */
function credentials(har: string): string[] {
  const cookie = /"name":\s*"m",\s*"value":\s*"([^"]+)"/.exec(har)?.[1];
  return [ADMIN.password, MADE.user.password, BASIC, ...(cookie ? [cookie] : [])];
}

/**
 * Converts `har` with the default options, checks what the summary asks and that the flow holds
 * no credential, and runs it twice on one fresh node with only that: each run's steps.
 */
async function convertAndRunTwice(har: string, dir: string) {
  const flowPath = `${dir}/${har.split("/").at(-1)}.yaml`;
  const converted = await runCli(["convert", "har", har, "-o", flowPath]);
  assert.equal(converted.code, 0, converted.stderr);
  const flow = await Deno.readTextFile(flowPath);
  assert.match(converted.stderr, /Set before running: BASIC_PASSWORD\./, converted.stderr);
  for (const value of credentials(await Deno.readTextFile(har))) {
    assert.ok(!flow.includes(value), `the flow holds ${value}`);
  }
  return await withInstance(rabbitmqLaunch(), async (node) => {
    const known = (name: string) => name === "BASIC_PASSWORD" ? ADMIN.password : undefined;
    const env = userEnv(flow, node.origin, known);
    assert.deepEqual(Object.keys(env).sort(), ["BASE_URL", "BASIC_PASSWORD"], flow);
    return await runsOf(flowPath, env, 2, async ({ steps, passed }, n) => {
      const after = await left(node.origin);
      console.error(
        `rabbitmq ${har.split("/").at(-1)}, run ${n}: ${passed} of ${steps.length} steps passed`,
      );
      return after;
    });
  });
}

for (const form of ["pw", "cdp"]) {
  realTest(
    `RabbitMQ's management UI, recorded in Chromium (${
      form === "pw" ? "Playwright's HAR" : "chrome-har"
    }): every step passes on a fresh node and again on the same one, only the Basic password asked, no credential in the flow`,
    missing,
    async (dir) => {
      const har = `${FIXTURES}journey.${form}.har`;
      assert.deepEqual(hostPaths(await Deno.readTextFile(har)), []);
      for (const { run, steps, passed, vhost, user } of await convertAndRunTwice(har, dir)) {
        assert.equal(steps.length, STEPS);
        assert.equal(passed, STEPS, run.stdout);
        assert.equal(run.code, 0, run.stdout);
        assert.ok(!run.stdout.includes(ADMIN.password) && !run.stdout.includes(BASIC));
        // The journey deletes what it made: nothing of it is left for the next run.
        assert.deepEqual({ vhost, user }, { vhost: false, user: false });
      }
    },
  );
}

realTest(
  "RabbitMQ: --verify against a fresh node passes, and the verified flow passes on another",
  missing,
  async (dir) => {
    const flowPath = `${dir}/verified.yaml`;
    const har = `${FIXTURES}journey.pw.har`;
    const env = { BASIC_PASSWORD: ADMIN.password };
    const verified = await withInstance(
      rabbitmqLaunch(),
      (node) => runCli(["convert", "har", har, "--verify", node.origin, "-o", flowPath], { env }),
    );
    console.error(`rabbitmq --verify: ${/^Verified[^\n]*/m.exec(verified.stderr)?.[0]}`);
    assert.equal(verified.code, 0, verified.stderr);
    assert.match(verified.stderr, new RegExp(`Verified ${STEPS} steps against \\S+: all pass`));
    await withInstance(rabbitmqLaunch(), async (node) => {
      const run = await runCli(["run", flowPath], { env: { ...env, BASE_URL: node.origin } });
      assert.equal(run.code, 0, run.stdout);
    });
  },
);

realTest(
  "RabbitMQ: a journey recorded now in Chromium passes on a fresh node, twice",
  missing + unlessAsked("RABBITMQ_FRESH"),
  async (dir) => {
    const recorded = await withInstance(
      rabbitmqLaunch(),
      (node) => recordJourney(node.origin, ADMIN),
    );
    for (const [form, text] of Object.entries(recorded)) {
      const har = `${dir}/${form}.har`;
      await Deno.writeTextFile(har, smallRecording(text));
      for (const { run, steps, passed } of await convertAndRunTwice(har, dir)) {
        assert.ok(steps.length >= 90 && passed === steps.length, `${form}\n${run.stdout}`);
      }
    }
  },
  ignoreBrowser,
);
