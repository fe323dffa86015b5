/**
 * `convert har` on phpMyAdmin 5.2 from Debian (tests/real/phpmyadmin.ts):
 * a login form (cookie auth) whose page hands out a `token` in hidden
 * inputs, sent back in nearly every URL, form and XHR after it (a new one
 * once logged in); a session cookie and per-server cookies (`pmaUser-1`,
 * `pmaAuth-1`) renewed by many answers; AJAX answers in JSON whose fields
 * hold the next page's HTML; a script that reads and writes its settings
 * with `key=<setting>`; a logout that is a form posting the token. The
 * journey (phpmyadmin_journey.ts): log in, create a database, a table with
 * two columns (a primary key through the index dialog), insert a row,
 * browse it, run a query from the SQL tab, drop the database, log out.
 *
 * What each run did is read from the instance's MariaDB: its statement
 * counters (`Com_create_db`, `Com_create_table`, `Com_insert`,
 * `Com_drop_db`) say each run created, filled and dropped one database of
 * its own; none is left.
 *
 * Measured 2026-11-27 on the stored recordings (40 steps each), converted
 * with the default options and run on a fresh instance with only what the
 * summary asks: before, 3 of 40 on both forms: the summary asked six
 * variables, the settings' names the script sends as `key`
 * (`NavigationWidth`, `Console`, `Console/Mode`), the index dialog's
 * `index[Key_name]=PRIMARY` and that PRIMARY again inside the table form's
 * JSON (RECORDED_SECRET); with only the password the run refused to start
 * (exit 2); given values a user cannot know, the first settings XHR failed
 * and the rest were skipped (har_setting_keys_test.ts). After: only
 * LOGIN_PASSWORD asked, 40 of 40 on the first run and on a second run on the
 * same instance, both forms, and `--verify` too. The tokens (query, form and
 * JSON), the HTML inside JSON and the per-server cookies needed no fix; the
 * XHRs whose answers echo the page's token were named `login_N`
 * (tests/convert/correlate/logins_test.ts). A new recording is made in
 * Chromium with `PHPMYADMIN_FRESH=1`.
 */
import assert from "node:assert/strict";
import { mariadbQuery } from "./mariadb.ts";
import { LOGIN, phpmyadminLaunch, phpmyadminMissing } from "./phpmyadmin.ts";
import { DATA, recordJourney } from "./phpmyadmin_journey.ts";
import { convertStored, loginAppTests, passesTwice, rememberedApp } from "./har_login_app.ts";

const missing = phpmyadminMissing();
const FIXTURES = new URL("./fixtures/phpmyadmin/", import.meta.url).pathname;

/** Fresh instances, their folders remembered: the runs read their database. */
const PHPMYADMIN = rememberedApp("phpmyadmin", phpmyadminLaunch, LOGIN.password);

/** The latest instance's statement counters and whether the journey's database is still there. */
async function done(): Promise<{ counts: string; left: string }> {
  const sql = (query: string) => mariadbQuery(PHPMYADMIN.latest(), query);
  const counts = await sql(
    "SHOW GLOBAL STATUS WHERE Variable_name IN " +
      "('Com_create_db', 'Com_create_table', 'Com_insert', 'Com_drop_db')",
  );
  return {
    counts: counts.replaceAll("\t", "=").split("\n").sort().join(" "),
    left: await sql(
      `SHOW DATABASES LIKE '${DATA.database}'`,
    ),
  };
}

/**
 * Converts the stored recording `name` and runs it twice on one fresh instance: every step
 * passes, each run created, filled and dropped a database of its own.
 */
async function storedPassesTwice(name: string, dir: string): Promise<void> {
  const converted = await convertStored(PHPMYADMIN, `${FIXTURES}${name}`, dir);
  const results = await passesTwice(PHPMYADMIN, converted, 40, done);
  for (const [i, { run, counts, left }] of results.entries()) {
    const n = i + 1;
    assert.equal(
      counts,
      `Com_create_db=${n} Com_create_table=${n} Com_drop_db=${n} Com_insert=${n}`,
      run.stdout,
    );
    assert.equal(left, "");
  }
}

loginAppTests({
  label: "phpMyAdmin",
  app: PHPMYADMIN,
  fixtures: FIXTURES,
  missing,
  steps: 40,
  storedPassesTwice,
  record: recordJourney,
  freshMin: 30,
});
