/**
 * `convert har` on WordPress 6.1 from Debian (tests/real/wordpress.ts): a
 * login form with a test cookie, a hidden `redirect_to` and a password input
 * named `pwd`, answered 302 with cookies named `wordpress_<md5 of the site's
 * URL>` (so another port names them otherwise); an admin whose pages hand
 * their scripts nonces in inline JavaScript (`wpApiSettings`,
 * `communityEventsData`, `heartbeatSettings`: one `"nonce"` key each), a
 * block editor that talks REST through `index.php?rest_route=…` with the
 * `X-WP-Nonce` of the page, a post whose id the server makes when the editor
 * opens (an auto-draft), and links that act (trash, log out) carrying
 * `_wpnonce`. The journey (wordpress_journey.ts): log in, write a post in the
 * block editor and publish it, open it on the site, edit it and update it,
 * trash it from the posts list, log out.
 *
 * What each run did is read from the instance's own database: every post of
 * the journey's title is in the trash, one per run, the last one holding the
 * edit (a run that edited or trashed the recording's post would leave its
 * own published, or fewer in the trash).
 *
 * Measured 2026-11-26 on the stored recordings, converted with the default
 * options and run on a fresh instance: before, 2 of 38 steps (the admin
 * cookie's name was read by a pattern another cookie of its prefix matched
 * first, the summary asked LOGIN_PWD and LOGIN_TESTCOOKIE, the page's own
 * `1`, and masked every `1` of the report; the nonces after the first
 * `"nonce"` of a page were sent as recorded): har_site_login_test.ts. Then
 * 38 of 38, yet no run trashed or logged out (both links dropped as HTML
 * documents) and a second run edited the first run's post (the recorded id
 * 5): har_link_actions_test.ts. Then 41 of 41, first run and second, both
 * forms, `--verify` too. A chrome-har recording made now lost the login's
 * `Set-Cookie` in 2 of 6 tries (SESSION_COOKIE asked, 2 of 41): the lost
 * case of har_site_login_test.ts; since, every fresh recording passed.
 */
import assert from "node:assert/strict";
import { mariadbQuery } from "./mariadb.ts";
import { LOGIN, wordpressLaunch, wordpressMissing } from "./wordpress.ts";
import { POST, recordJourney } from "./wordpress_journey.ts";
import { convertStored, loginAppTests, passesTwice, rememberedApp } from "./har_login_app.ts";

const missing = wordpressMissing();
const FIXTURES = new URL("./fixtures/wordpress/", import.meta.url).pathname;

/** Fresh instances, their folders remembered: the runs read their database. */
const WORDPRESS = rememberedApp("wordpress", wordpressLaunch, LOGIN.password);

/** The statuses and the last content of the journey's posts, read from the latest instance's database. */
async function posts(): Promise<{ statuses: string[]; last: string }> {
  const sql = (query: string) => mariadbQuery(WORDPRESS.latest(), query, "wordpress");
  const where = `post_type = 'post' AND post_title = '${POST.title}'`;
  const statuses = await sql(`SELECT post_status FROM wp_posts WHERE ${where} ORDER BY ID`);
  const last = await sql(
    `SELECT post_content FROM wp_posts WHERE ${where} ORDER BY ID DESC LIMIT 1`,
  );
  return { statuses: statuses === "" ? [] : statuses.split("\n"), last };
}

/**
 * Converts the stored recording `name` and runs it twice on one fresh instance: every step
 * passes, each run trashed a post of its own.
 */
async function storedPassesTwice(name: string, dir: string): Promise<void> {
  const converted = await convertStored(WORDPRESS, `${FIXTURES}${name}`, dir);
  const results = await passesTwice(WORDPRESS, converted, 41, posts);
  for (const [i, { statuses, last }] of results.entries()) {
    assert.deepEqual(statuses, Array(i + 1).fill("trash"), converted.flow);
    assert.ok(last.includes(`${POST.first}${POST.added}`), last);
  }
}

loginAppTests({
  label: "WordPress",
  app: WORDPRESS,
  fixtures: FIXTURES,
  missing,
  steps: 41,
  storedPassesTwice,
  record: recordJourney,
  freshMin: 30,
});
