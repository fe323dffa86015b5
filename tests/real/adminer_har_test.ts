/**
 * `convert har` on Adminer 4.8 from Debian (tests/real/adminer.ts) over
 * its own MariaDB: a login form posting `auth[driver]`, `auth[server]`,
 * `auth[username]`, `auth[password]` and `auth[db]`, session cookies
 * (`adminer_sid`, `adminer_key`), and on every page a CSRF `token` of
 * digits (`448664:180196`, a new pair per form and page) in each form,
 * the language form's first; forms answered by a redirect. The journey
 * (adminer_journey.ts): log in, create a table with two columns, insert two
 * rows, edit one, search the table, run an SQL command, drop the table, log
 * out.
 *
 * What each run did is read from the instance's MariaDB: its statement
 * counters say each run created, filled, edited and dropped one table of
 * its own; none is left.
 *
 * Measured 2026-11-27 on the stored recordings (24 steps from Playwright's
 * HAR, 25 from chrome-har's), converted with the default options and run on
 * a fresh instance with only what the summary asks. Before: the summary
 * asked for `INDEX_PHP_7_TOKEN` (the logout form's token) and
 * `RECORDED_SECRET` (the edited row's key `where[id]=1`, the value of a
 * row's checkbox on the data page), and every other form sent its recorded
 * token: a token of digits and a colon was no page value
 * (tests/convert/har_digit_tokens_test.ts), a checkbox's value was taken
 * for a secret (tests/convert/har_choice_values_test.ts). After: only
 * LOGIN_PASSWORD asked, every step passes on the first run and on a second
 * run on the same instance, both forms, and `--verify` too. A new recording
 * is made in Chromium with `ADMINER_FRESH=1`.
 */
import assert from "node:assert/strict";
import { mariadbQuery } from "./mariadb.ts";
import { adminerLaunch, adminerMissing, DATABASE, LOGIN } from "./adminer.ts";
import { DATA, recordJourney } from "./adminer_journey.ts";
import { convertStored, loginAppTests, passesTwice, rememberedApp } from "./har_login_app.ts";

const missing = adminerMissing();
const FIXTURES = new URL("./fixtures/adminer/", import.meta.url).pathname;

/** Fresh instances, their folders remembered: the runs read their database. */
const ADMINER = rememberedApp("adminer", adminerLaunch, LOGIN.password);

/** The steps each stored recording converts to. */
const STEPS: Record<string, number> = { "journey.pw.har": 24, "journey.cdp.har": 25 };

/** The latest instance's statement counters and whether the journey's table is still there. */
async function done(): Promise<{ counts: string; left: string }> {
  const sql = (query: string) => mariadbQuery(ADMINER.latest(), query);
  const counts = await sql(
    "SHOW GLOBAL STATUS WHERE Variable_name IN " +
      "('Com_create_table', 'Com_insert', 'Com_update', 'Com_drop_table')",
  );
  return {
    counts: counts.replaceAll("\t", "=").split("\n").sort().join(" "),
    left: await sql(`SHOW TABLES FROM ${DATABASE} LIKE '${DATA.table}'`),
  };
}

/**
 * Converts the stored recording `name` and runs it twice on one fresh instance: every step
 * passes, each run created, filled, edited and dropped a table of its own.
 */
async function storedPassesTwice(name: string, dir: string): Promise<void> {
  const converted = await convertStored(ADMINER, `${FIXTURES}${name}`, dir);
  const results = await passesTwice(ADMINER, converted, STEPS[name], done);
  for (const [i, { run, counts, left }] of results.entries()) {
    const n = i + 1;
    assert.equal(
      counts,
      `Com_create_table=${n} Com_drop_table=${n} Com_insert=${2 * n} Com_update=${n}`,
      run.stdout,
    );
    assert.equal(left, "");
  }
}

loginAppTests({
  label: "Adminer",
  app: ADMINER,
  fixtures: FIXTURES,
  missing,
  steps: STEPS["journey.pw.har"],
  storedPassesTwice,
  record: recordJourney,
  freshMin: 20,
});
