/**
 * `convert har` on MediaWiki 1.39 from Debian (tests/real/mediawiki.ts),
 * run by `php -S` on SQLite: a login form whose page hands out a hidden
 * `wpLoginToken`; session cookies named for the wiki's database
 * (`flowrun_wiki_session`, `flowrun_wikiUserName`); an editor whose form holds
 * `wpEditToken` (ending in `+\`), `wpStarttime`, `wpEdittime`, `editRevId`,
 * and whose script stashes the text through `api.php` (`action=stashedit`,
 * `formatversion=2`, the form's token and revision) as the user types; a save
 * answered 302; a history page whose form compares two revisions by id; the
 * administrator's delete form with its own token; a logout link the page's
 * script turns into `api.php` `action=logout` posting the CSRF token the page
 * wrote only inside an inline script (`mw.user.tokens.set({"csrfToken":"…+\\"})`).
 * The journey (mediawiki_journey.ts): log in, create a page, edit it again,
 * its history, the difference of the two revisions, delete it, log out.
 *
 * What each run did is read from the instance: its deletion log holds one
 * more deletion of the journey's page after each run, and the page is gone.
 *
 * Measured 2026-11-27 on the stored recordings (14 steps each), converted
 * with the default options and run on a fresh instance with only what the
 * summary asks: before, the summary asked LOGIN_PASSWORD and API_PHP_5_TOKEN
 * (the logout's token) and with only the password the run refused to start
 * (exit 2), both forms (har_script_escapes_test.ts); given a made-up token,
 * the first run passed 14 of 14 (the API answers a bad token with 200) and the
 * second 7 of 14: the second editor's stash calls sent
 * `formatversion=${…edit_rev_id}` (the revision was 2 when recorded), revision
 * 4 on a second run (har_client_constant_test.ts). After: only LOGIN_PASSWORD
 * asked, 14 of 14 on the first run and on a second run on the same instance,
 * both forms, and `--verify` too. The login token, the edit tokens, the
 * cookie names, the redirects and the revision ids needed no other fix. A new
 * recording is made in Chromium with `MEDIAWIKI_FRESH=1`.
 */
import assert from "node:assert/strict";
import { LOGIN, mediawikiLaunch, mediawikiMissing } from "./mediawiki.ts";
import { PAGE, recordJourney } from "./mediawiki_journey.ts";
import { convertStored, type LoginApp, loginAppTests, passesTwice } from "./har_login_app.ts";

const missing = mediawikiMissing();
const FIXTURES = new URL("./fixtures/mediawiki/", import.meta.url).pathname;
const MEDIAWIKI: LoginApp = {
  name: "mediawiki",
  launch: mediawikiLaunch,
  password: LOGIN.password,
};

/** How often the journey's page was deleted on `origin`, and whether it exists now. */
async function deletions(origin: string): Promise<{ deleted: number; exists: boolean }> {
  const api = `${origin}/api.php?format=json&formatversion=2&action=query`;
  const log = await (await fetch(`${api}&list=logevents&letype=delete&leprop=title`)).json();
  const pages = await (await fetch(`${api}&titles=${PAGE.title}`)).json();
  const title = PAGE.title.replaceAll("_", " ");
  return {
    deleted: log.query.logevents.filter((e: { title: string }) => e.title === title).length,
    exists: !pages.query.pages[0].missing,
  };
}

/** Converts the stored recording `name` and runs it twice on one fresh instance: every step passes. */
async function storedPassesTwice(name: string, dir: string): Promise<void> {
  const converted = await convertStored(MEDIAWIKI, `${FIXTURES}${name}`, dir);
  const results = await passesTwice(MEDIAWIKI, converted, 14, deletions);
  assert.deepEqual(results.map(({ deleted, exists }) => [deleted, exists]), [[1, false], [
    2,
    false,
  ]]);
}

loginAppTests({
  label: "MediaWiki",
  app: MEDIAWIKI,
  fixtures: FIXTURES,
  missing,
  steps: 14,
  storedPassesTwice,
  record: recordJourney,
  freshMin: 12,
});
