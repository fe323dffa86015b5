/**
 * `convert har` on a network monitor's console nobody here wrote: Zabbix's
 * web frontend 6.0.14 from Debian bookworm (tests/real/zabbix.ts), on
 * MariaDB, without the Zabbix server daemon. The session is the
 * `zbx_session` cookie (base64 JSON of the session id and its signature,
 * renewed by every answer); every form and AJAX call sends the `sid` the
 * page holds (a hidden input, `<meta name="csrf-token">`); the host is saved
 * by XHR (`zabbix.php?action=host.create`, a JSON answer) and its dialog
 * posts `popup.host.edit`; multiselects search by `jsrpc.php`; after a save
 * the page script leaves the message for the next page in cookies. The
 * journey (zabbix_journey.ts): sign in, add a host group and rename it, add
 * a host in it, an item on it, rename the host in its dialog, add a user in a
 * group with a role, delete the user, the host and the group, sign out.
 *
 * Measured 2026-11-27 on the stored recordings (Chromium, 63 steps each),
 * converted with the default options and run on a fresh instance with only
 * what the summary asks: before, 22 of 63 in both forms, with LOGIN_PASSWORD,
 * ITEMS_PHP_KEY, LOGIN_PASSWORD_2 and RECORDED_SECRET asked (the item's key
 * `harbour.load`, typed in a visible `name="key"` input, and the new user's
 * password, asked twice), the journey stopping where the message cookies
 * were read from the host's save; after (har_message_cookie_test.ts,
 * har_refreshed_password_form_test.ts, har_text_input_key_test.ts), 63 of 63
 * in both forms with only LOGIN_PASSWORD; `--verify` repairs nothing. A
 * second run on the same instance passed 22 of 63: the rows it makes get new
 * ids (group 21, not 20), which the recording names only in the list's links
 * (`hostgroups.php?form=update&groupid=20`), its checkbox names
 * (`groups[20]`) and the multiselect's JSON (`{"name": …, "id": "20"}`); after
 * (har_named_rows_test.ts: a link's query id beside a name the journey sent,
 * a checkbox named for that row, a search's row beside such a name), 63 of 63
 * in both forms, its deletes leaving nothing of either run; see
 * docs/real-servers.md. The stored recordings run without a browser; a new
 * one is recorded in Chromium with `ZABBIX_FRESH=1`.
 */
import assert from "node:assert/strict";

import { LOGIN, zabbixLaunch, zabbixMissing } from "./zabbix.ts";
import { MADE, recordJourney } from "./zabbix_journey.ts";
import { convertStored, loginAppTests, rememberedApp, runAsUser } from "./har_login_app.ts";
import { mariadbQuery } from "./mariadb.ts";
import { withInstance } from "./servers.ts";

const missing = zabbixMissing();
const FIXTURES = new URL("./fixtures/zabbix/", import.meta.url).pathname;

/** Fresh instances, their folders remembered: the runs read their database. */
const ZABBIX = rememberedApp("zabbix", zabbixLaunch, LOGIN.password);

/** The steps each stored recording converts to. */
const STEPS = 63;
/** The steps a second run on the same instance passes, on rows of its own. */
const SECOND_RUN_FLOOR = 63;

/** What a run left in the latest instance: the journey's group, host, item and user. */
async function state() {
  const dir = ZABBIX.latest();
  const count = async (table: string, where: string) =>
    Number(await mariadbQuery(dir, `SELECT COUNT(*) FROM ${table} WHERE ${where}`, "zabbix"));
  return {
    groups: await count("hstgrp", `name LIKE 'Harbour%'`),
    hosts: await count("hosts", `host = '${MADE.host.name}'`),
    items: await count("items", `key_ = '${MADE.item.key}'`),
    users: await count("users", `username = '${MADE.user.username}'`),
  };
}

/**
 * Runs the flow twice on one fresh instance: the first run passes every step and leaves nothing
 * of the journey; the second passes at least the floor.
 */
async function passesOnFresh(flowPath: string, flow: string, steps: number) {
  await withInstance(ZABBIX.launch(), async (w) => {
    const { env, results } = await runAsUser(ZABBIX, w, flowPath, flow, 2, state);
    assert.deepEqual(Object.keys(env).sort(), ["BASE_URL", "LOGIN_PASSWORD"], flow);
    const [first, second] = results;
    assert.ok(first.steps.length >= steps, flow);
    assert.equal(first.passed, first.steps.length, `${first.run.stdout}\n${flow}`);
    assert.deepEqual(
      { groups: first.groups, hosts: first.hosts, items: first.items, users: first.users },
      { groups: 0, hosts: 0, items: 0, users: 0 },
    );
    assert.ok(second.passed >= SECOND_RUN_FLOOR, second.run.stdout);
    // The second run's deletes found its own rows: nothing of either run is left.
    assert.deepEqual(
      { groups: second.groups, hosts: second.hosts, items: second.items, users: second.users },
      { groups: 0, hosts: 0, items: 0, users: 0 },
    );
    for (const { run } of results) assert.ok(!run.stdout.includes(LOGIN.password), run.stdout);
  });
}

/** Converts the stored recording `name`; it passes on a fresh instance. */
async function storedPasses(name: string, dir: string): Promise<void> {
  const { flowPath, flow } = await convertStored(ZABBIX, `${FIXTURES}${name}`, dir);
  assert.ok(!flow.includes(MADE.userPassword), `the flow holds the typed password:\n${flow}`);
  assert.match(flow, /key: harbour\.load/);
  await passesOnFresh(flowPath, flow, STEPS);
}

loginAppTests({
  label: "Zabbix",
  app: ZABBIX,
  fixtures: FIXTURES,
  missing,
  steps: STEPS,
  storedPassesTwice: storedPasses,
  record: recordJourney,
  freshMin: 50,
  freshRun: passesOnFresh,
  claims: {
    playwright: "passes every step on a fresh instance",
    chromeHar: "passes every step too",
  },
});
