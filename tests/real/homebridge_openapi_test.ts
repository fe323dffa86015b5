/**
 * `convert openapi` on Homebridge UI 5.10.0 (npm `homebridge-config-ui-x`,
 * a NestJS app, started by homebridge.ts standalone with a storage folder
 * of its own): a user who has made the first user in the set-up wizard
 * downloads the document the UI serves (`/swagger-json`, 110 operations),
 * converts it with default options, and runs the summary's command with
 * only the variables it asks for on that instance. Measured: the operations
 * that got a 2xx; today's count is the floor (docs/real-servers.md names
 * why the others are refused). Before anything is sent the flows are
 * checked to hold none of the operations that act on the machine or end
 * the UI. `REAL_KEEP=DIR` keeps the document, flows and report.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { acceptedSaid, convertAndRunAsPrinted, knownOnly, operationsOf } from "./measure.ts";
import { prepare, realTest, withInstance } from "./servers.ts";
import {
  HOMEBRIDGE,
  HOMEBRIDGE_ADMIN,
  HOMEBRIDGE_DOCUMENT,
  homebridgeFirstUser,
  homebridgeLaunch,
} from "./homebridge.ts";

const prepared = await prepare(HOMEBRIDGE);

/**
 * The operations accepted on 2026-11-27: 0 before that day's fixes (the
 * document was refused: a `$ref` with an empty name,
 * `openapi_unnamed_refs_test.ts`); 52 once its oauth2 password flow's
 * `tokenUrl`, the document's own JSON login, was read as that login
 * (`openapi_oauth2_login_test.ts`) and the restarts of the container and of
 * Homebridge were left out (`openapi_stops_test.ts`); 55 since a write whose
 * body the document does not describe sends back what its path's GET
 * answered (`openapi_read_back_test.ts`: the config editor's save had
 * replaced the config with a default, and later changes failed); 56 since
 * a password alone in a signed-in call's body is the account's own
 * (`openapi_reauth_test.ts`: the 2FA deactivation); 57 on 2026-11-29's base;
 * 60 since `{pluginName}` is read from the plugins' listing, its `name`
 * (`openapi_member_listing_test.ts`: the changelog, the alias, the plugin's
 * config blocks); 62 since a bridge's `{username}` is the document's example
 * MAC, not the user the run made (`openapi_example_over_name_test.ts`); 64
 * since an update of one settings resource sends what its read answers where
 * the document gives no value (`openapi_settings_read_back_test.ts`: the
 * port's PUT, documented with no body, and the mDNS advertiser's, whose
 * values the document does not list). The rest: docs/real-servers.md.
 */
const FLOOR = 64;

/**
 * Operations that restart or stop the host, the container, the UI or
 * Homebridge, or install its code: the converter must leave each out (a
 * `sudo kill 1`, a `shutdown -h now`, a SIGKILL of the UI, an npm install).
 */
const HARMFUL = [
  "PUT /api/server/restart",
  "PUT /api/platform-tools/linux/restart-host",
  "PUT /api/platform-tools/linux/shutdown-host",
  "PUT /api/platform-tools/docker/restart-container",
  "PUT /api/backup/restart",
  // An update of Homebridge, the UI or a plugin installs from npm (and restarts the UI).
  "POST /api/plugins/update/{pluginName}",
];

realTest(
  `Homebridge UI's own OpenAPI document, converted and run on a fresh instance, gets a 2xx on at least ${FLOOR} of its 110 operations`,
  prepared.ignoredBecause,
  async (dir) => {
    const launch = homebridgeLaunch(prepared.install!.prefix);
    await withInstance(launch, async (b) => {
      await homebridgeFirstUser(b.origin);
      const response = await fetch(`${b.origin}${HOMEBRIDGE_DOCUMENT}`);
      assert.equal(response.status, 200);
      const doc = await response.json();
      await Deno.writeTextFile(`${dir}/homebridge.json`, JSON.stringify(doc, null, 2));
      const ops = operationsOf(doc);
      assert.equal(ops.length, 110);
      // Nothing is sent until the flows are known to leave the harmful operations out.
      const first = await runCli([
        "convert",
        "openapi",
        `${dir}/homebridge.json`,
        "-o",
        `${dir}/x`,
      ]);
      assert.equal(first.code, 0, first.stderr);
      const left = /^Left out \d+ operations? that stop the server.*$/m.exec(first.stderr)?.[0];
      for (const op of HARMFUL) assert.ok(left?.includes(op), `${op} is not left out: ${left}`);
      const trial = await convertAndRunAsPrinted(
        ["convert", "openapi", `${dir}/homebridge.json`, "-o", `${dir}/flows`],
        `${dir}/report.json`,
        // The first user's account, which the user made in the set-up wizard.
        knownOnly({
          BASE_URL: b.origin,
          LOGIN_USERNAME: HOMEBRIDGE_ADMIN.username,
          LOGIN_PASSWORD: HOMEBRIDGE_ADMIN.password,
        }),
      );
      console.error(trial.converted.stderr);
      assert.equal(trial.converted.code, 0, trial.converted.stderr);
      assert.ok(trial.report, `no report:\n${trial.run.stdout}\n${trial.run.stderr}`);
      const result = acceptedSaid(
        `homebridge-config-ui-x@${HOMEBRIDGE[1].version}`,
        ops,
        trial.report.steps,
      );
      assert.ok(result.accepted.length >= FLOOR, `${result.accepted.length} < ${FLOOR}`);
      const flows = [...Deno.readDirSync(`${dir}/flows`)].filter((e) => e.name.endsWith(".yaml"))
        .map((e) => Deno.readTextFileSync(`${dir}/flows/${e.name}`)).join("\n");
      assert.ok(!flows.includes(HOMEBRIDGE_ADMIN.password), "no literal credential");
    });
  },
);
