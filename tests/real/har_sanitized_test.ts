/**
 * `convert har` on recordings as Chrome DevTools' default export writes
 * them: "Export HAR (sanitized)" (Chrome 130 and later) leaves out every
 * `Cookie`, `Set-Cookie` and `Authorization` header and empties both
 * `cookies` arrays (tests/support/sanitized_har.ts). Made here from stored
 * recordings of four apps, converted with the default options and run
 * twice on a fresh instance with only what the summary asks:
 * - Shaarli (tests/real/shaarli.ts): PHP forms, a session cookie set by the
 *   login page and the login post;
 * - Homebridge UI (tests/real/homebridge.ts): a JSON single-page app whose
 *   login answers an OAuth 2 token (`access_token`, `token_type` Bearer)
 *   the later API calls send as `Authorization: Bearer`;
 * - Node-RED (tests/real/har/node_red.ts): the same in its editor, the
 *   token from `POST /auth/token`, revoked at the end;
 * - Directus (tests/real/directus.ts): a JSON single-page app on a session
 *   cookie its login sets and each `POST /auth/refresh` renews.
 *
 * Measured 2026-11-27 (steps passed of the flow's, both runs alike):
 * before, Shaarli 1 of 34 (pw) and 1 of 36 (cdp), the login post refused
 * (403) without the session cookie its page set; Homebridge 9 of 24 and
 * 10 of 25, Node-RED 4 of 31 and 4 of 29, every call after the login
 * answered 401 without the token; Directus 7 of 142 and 7 of 142, its
 * `GET /users/me` answered 401 without the session cookie. The run keeps the live server's cookies
 * and the later scripted calls send the token answer's Bearer token
 * (tests/convert/har_sanitized_{cookie,bearer}_test.ts); after: every step,
 * twice, in all eight, with only the passwords the summary asks. `--verify`
 * against a fresh instance replayed Shaarli's without its cookies (the
 * login post refused); it now keeps them too: every app's Playwright form
 * verifies, every step passing.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { userEnv } from "../support/convert_apps.ts";
import { sanitizedHar } from "../support/sanitized_har.ts";
import { runsOf, saysRun } from "./measure.ts";
import { prepare, realTest, withInstance } from "./servers.ts";
import { LOGIN, shaarliLaunch, shaarliMissing } from "./shaarli.ts";
import {
  HOMEBRIDGE,
  HOMEBRIDGE_ADMIN,
  homebridgeFirstUser,
  homebridgeLaunch,
} from "./homebridge.ts";
import { NODE_RED_PASSWORD, NODE_RED_VERSION, startNodeRed } from "./har/node_red.ts";
import { SERVICE_PASSWORD } from "./har/journey.ts";
import { DIRECTUS, DIRECTUS_ADMIN, directusMissing, withDirectus } from "./directus.ts";
import { journeyInstance } from "./directus_journey.ts";

const FIXTURES = new URL("./fixtures/", import.meta.url).pathname;
const homebridge = await prepare(HOMEBRIDGE);
const nodeRed = await prepare([{ name: "node-red", version: NODE_RED_VERSION }]);
const directus = directusMissing()
  ? { ignoredBecause: directusMissing(), install: undefined }
  : await prepare([DIRECTUS]);

/** The value the user gives a variable the summary asks for, if they know it. */
type Known = (name: string) => string | undefined;

/** Only the login's password is known: `password`. */
const login = (password: string): Known => (name) =>
  name === "LOGIN_PASSWORD" ? password : undefined;

/** One app whose stored recordings are sanitized here. */
interface App {
  name: string;
  ignoredBecause: string;
  /** The stored recording of `form`. */
  fixture: (form: string) => string;
  /**
   * Runs `fn` on a fresh instance, ready for the journey, with what the user gives each variable
   * the summary asks: the passwords they typed.
   */
  fresh: (fn: (origin: string, known: Known) => Promise<void>) => Promise<void>;
  /** Steps each form's flow holds, by form. */
  steps: Record<string, number>;
}

const APPS: App[] = [
  {
    name: "shaarli",
    ignoredBecause: shaarliMissing(),
    fixture: (form) => `${FIXTURES}shaarli/journey.${form}.har`,
    fresh: (fn) => withInstance(shaarliLaunch(), (w) => fn(w.origin, login(LOGIN.password))),
    steps: { pw: 34, cdp: 36 },
  },
  {
    name: "homebridge",
    ignoredBecause: homebridge.ignoredBecause,
    fixture: (form) => `${FIXTURES}homebridge/journey.${form}.har`,
    fresh: (fn) =>
      withInstance(homebridgeLaunch(homebridge.install!.prefix), async (w) => {
        await homebridgeFirstUser(w.origin);
        await fn(w.origin, login(HOMEBRIDGE_ADMIN.password));
      }),
    steps: { pw: 24, cdp: 25 },
  },
  {
    name: "node-red",
    ignoredBecause: nodeRed.ignoredBecause,
    fixture: (form) => new URL(`./har/fixtures/node_red.${form}.har`, import.meta.url).pathname,
    fresh: async (fn) => {
      const instance = await startNodeRed();
      try {
        // The service password the user typed into the flow's node is asked too.
        await fn(
          instance.origin,
          (name) =>
            name === "CREATE_FLOW_PASSWORD" ? SERVICE_PASSWORD : login(NODE_RED_PASSWORD)(name),
        );
      } finally {
        await instance.close();
      }
    },
    steps: { pw: 31, cdp: 29 },
  },
  {
    name: "directus",
    ignoredBecause: directus.ignoredBecause,
    fixture: (form) => `${FIXTURES}directus/har/journey.${form}.har`,
    fresh: (fn) =>
      withDirectus(
        journeyInstance(directus.install!.prefix),
        (d) => fn(d.baseUrl, login(d.adminPassword)),
      ),
    steps: { pw: 142, cdp: 142 },
  },
];

/** The passwords of the journeys, never to be written in a flow. */
const SECRETS = [
  LOGIN.password,
  HOMEBRIDGE_ADMIN.password,
  NODE_RED_PASSWORD,
  SERVICE_PASSWORD,
  DIRECTUS_ADMIN.password,
];

for (const app of APPS) {
  for (const form of ["pw", "cdp"]) {
    const name = `${app.name}: DevTools' sanitized export (${form}) passes twice`;
    realTest(name, app.ignoredBecause, async (dir) => {
      const har = `${dir}/journey.${form}.sanitized.har`;
      await Deno.writeTextFile(har, sanitizedHar(await Deno.readTextFile(app.fixture(form))));
      const flowPath = `${dir}/flow.yaml`;
      const converted = await runCli(["convert", "har", har, "-o", flowPath]);
      assert.equal(converted.code, 0, converted.stderr);
      // Said once, with the way to export the recording whole.
      assert.equal(converted.stderr.match(/DevTools' sanitized export/g)?.length, 1);
      assert.match(converted.stderr, /Export HAR \(with sensitive data\)/);
      const flow = await Deno.readTextFile(flowPath);
      for (const secret of SECRETS) assert.ok(!flow.includes(secret), "asked, never written");
      await app.fresh(async (origin, known) => {
        const env = userEnv(flow, origin, known);
        const results = await runsOf(flowPath, env, 2, saysRun(`${app.name} sanitized ${form}`));
        for (const { run, steps, passed } of results) {
          assert.equal(steps.length, app.steps[form], flow);
          assert.equal(passed, steps.length, `${run.stdout}\n${flow}`);
        }
      });
    });
  }
}

for (const app of APPS) {
  const name = `${app.name}: --verify of DevTools' sanitized export (pw) has every step passing`;
  realTest(name, app.ignoredBecause, async (dir) => {
    const har = `${dir}/journey.pw.sanitized.har`;
    await Deno.writeTextFile(har, sanitizedHar(await Deno.readTextFile(app.fixture("pw"))));
    const flowPath = `${dir}/verified.yaml`;
    const asked = await runCli(["convert", "har", har, "-o", flowPath]);
    assert.equal(asked.code, 0, asked.stderr);
    const flow = await Deno.readTextFile(flowPath);
    await app.fresh(async (origin, known) => {
      const env = userEnv(flow, origin, known);
      const verified = await runCli(["convert", "har", har, "--verify", origin, "-o", flowPath], {
        env,
      });
      console.error(
        `${app.name} sanitized --verify: ${/^Verified[^\n]*/m.exec(verified.stderr)?.[0]}`,
      );
      assert.equal(verified.code, 0, verified.stderr);
      assert.match(verified.stderr, /^Verified \d+ steps against \S+: all pass\.$/m);
    });
  });
}
