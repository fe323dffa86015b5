/**
 * `convert har` on a single-page PHP reader nobody here wrote: Tiny Tiny RSS
 * from Debian bookworm (tests/real/ttrss.ts), run by `php -S` on a MariaDB
 * of its own, its feeds served by a local proxy. Its login form on
 * `index.php` posts `op=login` with `login` and `password` to `public.php`
 * (302, a `ttrss_sid` cookie); the reader page hands out a `__csrf_token`
 * in its inline script that every `backend.php` call (Prototype's XHR,
 * urlencoded `op` and `method`) sends back, answered in JSON or HTML
 * fragments; the preferences save a whole form and reload; the logout
 * posts the token to `public.php`. The journey (ttrss_journey.ts): log in,
 * subscribe to two feeds, let the page's updater fetch them, open a feed,
 * mark an article unread, star it, make a label and put the article in it,
 * mark the feed read, change a preference, make a category, log out.
 *
 * Measured 2026-11-27 on the stored recordings (41 steps each), converted
 * with the default options and run on a fresh instance with only what the
 * summary asks: before, 41 of 41 on the first run and again on the second,
 * but the password was asked as `PUBLIC_PHP_2_PASSWORD`: the login page,
 * dropped as an HTML document, was the only thing that said `password` is
 * what the user types, and nothing else marked the post to `public.php` as
 * the login (har_dropped_login_page_test.ts). And every step passed while
 * the replay starred and labelled another article in three runs of four:
 * the article's id (`ids=3`) is a small row number the `method=view` read
 * listed, sent as recorded, and tt-rss numbers the articles in the order
 * its updater fetched the feeds (`ORDER BY RAND()`); a small id an
 * endpoint's read listed, sent back to it under the rows' key, is now taken
 * from the fresh list by the row's title (har_listed_row_id_test.ts).
 * After both, the summary asks for LOGIN_PASSWORD, every step passes twice
 * and the first run stars and labels the recorded article (8 of 8 by hand). The stored recordings run
 * without a browser; a new one is recorded in Chromium with `TTRSS_FRESH=1`.
 */
import assert from "node:assert/strict";

import { LOGIN, ttrssLaunch, ttrssMissing } from "./ttrss.ts";
import { MADE, recordJourney } from "./ttrss_journey.ts";
import { convertStored, loginAppTests, passesTwice, rememberedApp } from "./har_login_app.ts";
import { mariadbQuery } from "./mariadb.ts";

const missing = ttrssMissing();
const FIXTURES = new URL("./fixtures/ttrss/", import.meta.url).pathname;

/** The first headline of the feed the journey opened, which it starred and labelled. */
const RECORDED_ARTICLE = "Dredging finished";

/** The steps each stored recording converts to. */
const STEPS: Record<string, number> = { "journey.pw.har": 41, "journey.cdp.har": 41 };

/** Fresh instances, their folders remembered: the runs read their database. */
const TTRSS = rememberedApp("ttrss", ttrssLaunch, LOGIN.password);

/** What a run left in the latest instance: its feeds, labels, categories and starred articles. */
async function state(_origin: string) {
  const ask = (sql: string) => mariadbQuery(TTRSS.latest(), sql, "ttrss");
  return {
    feeds: await ask("SELECT COUNT(*) FROM ttrss_feeds"),
    labels: await ask("SELECT caption FROM ttrss_labels2"),
    categories: await ask("SELECT title FROM ttrss_feed_categories"),
    starred: await ask(
      "SELECT e.title FROM ttrss_user_entries u JOIN ttrss_entries e ON e.id = u.ref_id WHERE u.marked = 1",
    ),
    labelled: await ask(
      "SELECT e.title FROM ttrss_user_labels2 l JOIN ttrss_entries e ON e.id = l.article_id",
    ),
  };
}

/** Converts the stored recording `name` and runs it twice on one fresh instance: every step passes. */
async function storedPassesTwice(name: string, dir: string): Promise<void> {
  const converted = await convertStored(TTRSS, `${FIXTURES}${name}`, dir);
  const [first, second] = await passesTwice(TTRSS, converted, STEPS[name], state);
  // The first run subscribed, labelled, starred and filed; the second made no duplicates.
  assert.equal(first.feeds, "2");
  // The article the recording starred and labelled, whatever number the fresh instance gave it.
  assert.equal(first.starred, RECORDED_ARTICLE);
  assert.equal(first.labelled, RECORDED_ARTICLE);
  for (const run of [first, second]) {
    assert.equal(run.labels, MADE.label);
    assert.equal(run.categories, MADE.category);
  }
  assert.equal(second.feeds, "2");
}

loginAppTests({
  label: "Tiny Tiny RSS",
  app: TTRSS,
  fixtures: FIXTURES,
  missing,
  steps: STEPS["journey.pw.har"],
  storedPassesTwice,
  record: recordJourney,
  freshMin: 38,
});
