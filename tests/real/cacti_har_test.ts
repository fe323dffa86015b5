/**
 * `convert har` on a network grapher's console nobody here wrote whose
 * forms and AJAX calls carry CSRF-magic's token: Cacti 1.2.24 from Debian
 * bookworm (tests/real/cacti.ts), on MariaDB, without its poller. Every
 * page writes its own token `sid:<sha1>,<time>` (a hidden `__csrf_magic`
 * on the login form, `var csrfMagicToken` in every page's script, the
 * XHR-loaded parts included); saves answer a 302 that its XHR follows; the
 * graph tree's branch is made and named by jstree's AJAX calls. The journey
 * (cacti_journey.ts): log in, add a device and rename it, add a tree, lock
 * it, add a root branch and name it, unlock it, add a user with its
 * password and edit its full name, change a setting, delete the user, the
 * device and the tree (the list's action menu, then its confirmation), log out.
 *
 * Measured 2026-11-27 on the stored recordings (Chromium 156), converted
 * with the default options and run on a fresh instance with only what the
 * summary asks: before, 2 of 36 in both forms (the tokens, taken for links
 * by their `sid:` head, were sent as recorded or asked of the user, and
 * `snmp_auth_protocol=MD5`, a select's option, was asked as a credential:
 * 12 variables); after (har_prefixed_token_test.ts,
 * har_select_choice_test.ts), 41 of 41 with only LOGIN_PASSWORD, on each of
 * two fresh instances; `--verify` repairs nothing. A second run on the same
 * instance passed 7 of 41: the rows it makes get new ids (device 2, not 1),
 * which the recording names only in the saves' `Location` query
 * (`host.php?…&action=edit&id=1`), in later requests to the same page, in
 * the list's checkbox names (`chk_1`) and in the confirmation's hidden
 * `selected_items`; after har_query_row_id_test.ts, 41 of 41 twice on each
 * of two instances, each run leaving nothing of the journey. The
 * stored recordings run without a browser; a new one is recorded in
 * Chromium with `CACTI_FRESH=1`.
 */
import assert from "node:assert/strict";

import { cactiLaunch, cactiMissing, LOGIN } from "./cacti.ts";
import { MADE, recordJourney } from "./cacti_journey.ts";
import { convertStored, loginAppTests, rememberedApp, runAsUser } from "./har_login_app.ts";
import { mariadbQuery } from "./mariadb.ts";
import { withInstance } from "./servers.ts";

const missing = cactiMissing();
const FIXTURES = new URL("./fixtures/cacti/", import.meta.url).pathname;

/** Fresh instances, their folders remembered: the runs read their database. */
const CACTI = rememberedApp("cacti", cactiLaunch, LOGIN.password);

/**
 * The steps each stored recording converts to: 42 since html_answer.ts keeps jstree's
 * `get_branch_sort` XHR, answered `inherit` as `text/html` (41 before).
 */
const STEPS = 42;

/** What a run left in the latest instance: the journey's rows and the setting it changed. */
async function state() {
  const dir = CACTI.latest();
  const count = async (table: string, where: string) =>
    Number(await mariadbQuery(dir, `SELECT COUNT(*) FROM ${table} WHERE ${where}`, "cacti"));
  return {
    devices: await count("host", "description LIKE 'Harbour%'"),
    trees: await count("graph_tree", `name = '${MADE.tree.name}'`),
    branches: await count("graph_tree_items", `title = '${MADE.tree.branch}'`),
    users: await count("user_auth", `username = '${MADE.user.username}'`),
    setting: await mariadbQuery(
      dir,
      `SELECT value FROM settings WHERE name = '${MADE.setting.name}'`,
      "cacti",
    ),
  };
}

/**
 * Runs the flow `runs` times on one fresh instance: every step of each run passes, and each run
 * left only the setting (a second run acts on the rows it made, not on the first run's).
 */
async function passesOnFresh(flowPath: string, flow: string, steps: number, runs = 1) {
  await withInstance(CACTI.launch(), async (w) => {
    const { env, results } = await runAsUser(CACTI, w, flowPath, flow, runs, state);
    assert.deepEqual(Object.keys(env).sort(), ["BASE_URL", "LOGIN_PASSWORD"], flow);
    assert.equal(results.length, runs);
    for (const { run, steps: done, passed, ...left } of results) {
      assert.ok(done.length >= steps, flow);
      assert.equal(passed, done.length, `${run.stdout}\n${flow}`);
      assert.ok(!run.stdout.includes(LOGIN.password), run.stdout);
      assert.deepEqual(left, {
        devices: 0,
        trees: 0,
        branches: 0,
        users: 0,
        setting: MADE.setting.value,
      });
    }
  });
}

/** Converts the stored recording `name`; it passes twice on each of two fresh instances. */
async function storedPasses(name: string, dir: string): Promise<void> {
  const { flowPath, flow } = await convertStored(CACTI, `${FIXTURES}${name}`, dir);
  assert.ok(!flow.includes(MADE.userPassword), `the flow holds the typed password:\n${flow}`);
  assert.doesNotMatch(flow, /sid:[0-9a-f]{40}/, "a recorded CSRF-magic token is sent");
  for (let n = 0; n < 2; n++) await passesOnFresh(flowPath, flow, STEPS, 2);
}

loginAppTests({
  label: "Cacti",
  app: CACTI,
  fixtures: FIXTURES,
  missing,
  steps: STEPS,
  storedPassesTwice: storedPasses,
  record: recordJourney,
  freshMin: 30,
  freshRun: passesOnFresh,
  claims: {
    playwright: "passes every step twice on each of two instances (the second run on its own rows)",
    chromeHar: "passes every step too",
  },
});
