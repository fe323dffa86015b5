/**
 * `convert har` on a journey through Parse Dashboard over Parse Server on PostgreSQL
 * (tests/real/parse.ts, recorded in Chromium by tests/real/parse_journey.ts): log in through a
 * form with a CSRF token, create a class, add two columns, add a row and edit a cell, apply a
 * filter, create a second class and delete it, log out. The page reads
 * `parse-dashboard-config.json`, whose answer holds the app id and the master key, and its SDK
 * sends both in the JSON body of every call to `/parse`. Both HAR forms are stored in
 * tests/real/fixtures/parse/ (the app's script and style bodies left out), converted with the
 * default options and run on one fresh server with only what the summary asks (the password the
 * user typed): the master key is a capture from the config's answer, never a literal or a
 * variable.
 *
 * Before 2026-11-28 (docs/real-servers.md) 1 of 33 steps passed and the summary asked for
 * `LOGIN_CSRF`, `DASHBOARD_CONFIG_KEY` and `DASHBOARD_CONFIG_2_KEY`: the CSRF token was the whole
 * body of a JSON script (tests/convert/har_script_string_test.ts), a settings query's
 * `where.key` was taken for a credential (tests/convert/har_query_key_test.ts), and the master
 * key's capture picked the app by its `serverURL`, the recorded host and port
 * (tests/convert/har_url_discriminator_test.ts).
 *
 * Before 2026-11-28's second change, a second run on the same instance stopped where the journey
 * creates its class again: Parse refuses a class name that exists (400,
 * `{"code":103,"error":"Class Voyage already exists."}`). The name the user typed is the class's
 * identifier (the create's path and every later path carry it, the answer echoes it with no id
 * beside it) and nothing deletes the class: it is now the run's own in its own shape,
 * `Voyage_${RANDOM.HEX_8}` (a class name takes no `-`), and both runs pass
 * (tests/convert/har_kept_identifier_test.ts).
 */
import assert from "node:assert/strict";
import { runOnceAsUser } from "./passes_as_user.ts";
import { convertStored } from "./har_login_app.ts";
import { prepare, start } from "./servers.ts";
import { postgresMissing } from "./unleash.ts";
import { PARSE, PARSE_SETUP, withParse } from "./parse.ts";
import { NAMES } from "./parse_journey.ts";

const parse = await prepare(PARSE);
const missing = parse.ignoredBecause || postgresMissing();
const FIXTURES = new URL("./fixtures/parse/", import.meta.url).pathname;

/**
 * What the runs left, read with the master key: `runs` classes named the typed name and a run's
 * own suffix (`Voyage_1a2b3c4d`), each with its columns and its one edited row; no scratch class.
 */
async function leftBehind(origin: string, runs: number): Promise<void> {
  const call = async (path: string) => {
    const response = await fetch(`${origin}/parse${path}`, {
      headers: {
        "x-parse-application-id": PARSE_SETUP.appId,
        "x-parse-master-key": PARSE_SETUP.masterKey,
      },
    });
    return await response.json();
  };
  const schemas = await call("/schemas");
  const names: string[] = schemas.results.map((s: { className: string }) => s.className);
  const own = new RegExp(`^${NAMES.klass}_[0-9a-f]{8}$`);
  const kept = names.filter((n) => own.test(n));
  assert.equal(kept.length, runs, names.join());
  assert.ok(!names.some((n) => n.startsWith(NAMES.scratch)), names.join());
  for (const klass of kept) {
    const rows = await call(`/classes/${klass}`);
    const cells = rows.results.map((r: Record<string, string>) => [r.title, r.port]);
    assert.deepEqual(cells, [[NAMES.row[0], NAMES.edited]]);
  }
}

for (const form of ["pw", "cdp"]) {
  Deno.test({
    name:
      `real servers: Parse Dashboard recorded in Chromium (${form} HAR: a CSRF login, a class, columns, a row and an edit, a filter, a class deleted, log out) passes every step on a fresh server with only the password asked, the master key captured from the dashboard's config${missing}`,
    ignore: missing !== "",
    sanitizeResources: false,
    sanitizeOps: false,
    async fn() {
      const dir = await Deno.makeTempDir({ prefix: "flowrun-real-parse-har-" });
      try {
        const har = `${FIXTURES}journey.${form}.har`;
        const { flowPath, flow } = await convertStored({ password: PARSE_SETUP.pass }, har, dir);
        assert.ok(!flow.includes(PARSE_SETUP.masterKey), flow);
        assert.match(flow, /_MasterKey: \$\{steps\.\w+\.capture\.\w+\}/);
        assert.match(flow, new RegExp(`${NAMES.klass}_\\$\\{RANDOM\\.HEX_8\\}`));
        await withParse(parse.install!.prefix, start, async (server) => {
          const first = await runOnceAsUser(
            "parse HAR",
            PARSE_SETUP.pass,
            server.origin,
            flowPath,
            flow,
            `${form} 1`,
          );
          assert.equal(first.run.code, 0, first.run.stdout);
          assert.ok(first.passed >= 33, first.run.stdout);
          await leftBehind(server.origin, 1);
          // The class name the user typed is the run's own: a second run makes its own class.
          const again = await runOnceAsUser(
            "parse HAR",
            PARSE_SETUP.pass,
            server.origin,
            flowPath,
            flow,
            `${form} 1, again`,
          );
          assert.equal(again.run.code, 0, again.run.stdout);
          assert.ok(again.passed >= 33, again.run.stdout);
          await leftBehind(server.origin, 2);
        });
      } finally {
        await Deno.remove(dir, { recursive: true });
      }
    },
  });
}
