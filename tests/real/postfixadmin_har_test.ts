/**
 * `convert har` on a mail host's web admin nobody here wrote whose PHP
 * forms carry the session's CSRF token: PostfixAdmin 3.3.13 from Debian
 * bookworm (tests/real/postfixadmin.ts), on SQLite, set up through its own
 * setup page (the setup password's hash, the tables, the superadmin). Every
 * form posts the session's `token`, and so does the query of the
 * enable/disable links; every save answers a 302 whose `Location` is
 * relative to the page (`main.php`, `edit.php?table=domain`). The journey
 * (postfixadmin_journey.ts): log in, add a domain, a mailbox with its
 * password, an alias, edit the mailbox's name and quota, disable and enable
 * it, add an admin for the domain, delete the alias, the mailbox, the admin
 * and the domain, log out.
 *
 * Measured 2026-11-27 on the stored recordings (Chromium 156), converted
 * with the default options and run on a fresh instance with only what the
 * summary asks (LOGIN_PASSWORD; the typed mailbox and admin passwords are
 * the run's own): before, 2 of 38 in both forms, the page after the login
 * fetched at `http://127.0.0.1:PORTmain.php` (the relative `Location`
 * captured straight after the base URL). A relative `Location` now goes
 * after the answering page's directory (har_relative_location_test.ts).
 * After: 38 of 38 twice in both forms; `--verify` 0 repairs. The stored
 * recordings run without a browser; a new one is recorded in Chromium with
 * `POSTFIXADMIN_FRESH=1`.
 */
import assert from "node:assert/strict";

import { LOGIN, postfixadminLaunch, postfixadminMissing } from "./postfixadmin.ts";
import { MADE, recordJourney } from "./postfixadmin_journey.ts";
import { convertStored, loginAppTests, passesTwice, rememberedApp } from "./har_login_app.ts";

const missing = postfixadminMissing();
const FIXTURES = new URL("./fixtures/postfixadmin/", import.meta.url).pathname;

/** The steps each stored recording converts to. */
const STEPS: Record<string, number> = { "journey.pw.har": 38, "journey.cdp.har": 38 };

/** The actions the journey logs: domain, 4 default aliases, mailbox, alias, 3 edits, 4 deletes, admin. */
const LOGGED_PER_RUN = 15;

/** Fresh instances, their folders remembered: the runs read their database. */
const POSTFIXADMIN = rememberedApp("postfixadmin", postfixadminLaunch, LOGIN.password);

/** The rows `sql` selects from the instance's SQLite database, read by PHP's PDO. */
async function query(dir: string, sql: string): Promise<Record<string, unknown>[]> {
  const code = `$d = new PDO('sqlite:${dir}/postfixadmin.db');` +
    `echo json_encode($d->query(${JSON.stringify(sql)})->fetchAll(PDO::FETCH_ASSOC));`;
  const out = await new Deno.Command("/usr/bin/php", { args: ["-r", code], stdout: "piped" })
    .output();
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/** What a run left in the latest instance: the journey's rows, its log, how many actions it logged. */
async function state(_origin: string) {
  const dir = POSTFIXADMIN.latest();
  const left = async (table: string, column: string) =>
    (await query(dir, `SELECT ${column} AS v FROM ${table} WHERE ${column} LIKE '%${MADE.domain}'`))
      .length;
  const log = await query(dir, "SELECT action, data FROM log ORDER BY id");
  const seq = await query(dir, "SELECT seq FROM sqlite_sequence WHERE name = 'log'");
  return {
    left: {
      domain: await left("domain", "domain"),
      mailbox: await left("mailbox", "username"),
      alias: await left("alias", "address"),
      admin: await left("admin", "username"),
    },
    log: log.map((row) => `${row.action} ${row.data}`),
    logged: Number(seq[0]?.seq ?? 0),
  };
}

/** Converts the stored recording `name` and runs it twice on one fresh instance: every step passes. */
async function storedPassesTwice(name: string, dir: string): Promise<void> {
  const converted = await convertStored(POSTFIXADMIN, `${FIXTURES}${name}`, dir);
  for (const typed of [MADE.mailbox.password, MADE.admin.password]) {
    assert.ok(
      !converted.flow.includes(typed),
      `the flow holds a typed password:\n${converted.flow}`,
    );
  }
  const [first, second] = await passesTwice(POSTFIXADMIN, converted, STEPS[name], state);
  // Each run made the domain, its mailbox, aliases and admin, and deleted them all again: the
  // setup's one action, then the journey's, logged by the app (a domain's own lines go with it).
  for (const [n, run] of [first, second].entries()) {
    assert.deepEqual(run.left, { domain: 0, mailbox: 0, alias: 0, admin: 0 });
    assert.equal(run.logged, 1 + LOGGED_PER_RUN * (n + 1), JSON.stringify(run.log));
    const times = (line: string) => run.log.filter((l) => l === line).length;
    assert.equal(times(`create_admin ${MADE.admin.username}`), n + 1, JSON.stringify(run.log));
    assert.equal(times(`delete_admin ${MADE.admin.username}`), n + 1);
    assert.equal(times(`delete_domain ${MADE.domain}`), 1);
  }
}

loginAppTests({
  label: "PostfixAdmin",
  app: POSTFIXADMIN,
  fixtures: FIXTURES,
  missing,
  steps: STEPS["journey.pw.har"],
  storedPassesTwice,
  record: recordJourney,
  freshMin: 30,
});
