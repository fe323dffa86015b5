/**
 * `convert har` on a server-rendered PHP app nobody here wrote: DokuWiki
 * 2022-07-31a from Debian (tests/real/dokuwiki.ts), run by `php -S`. Every
 * request of its own is a page: the login form posts `u`, `p` and a hidden
 * `sectok` and answers 302 with a login cookie named `DW` + an MD5 of the
 * instance's path and port; the editor holds hidden `sectok`, `date` (the
 * revision the edit starts from) and `changecheck`, renews its lock through
 * `lib/exe/ajax.php` (an XHR answered JSON labelled `text/html`), and the save answers 302,
 * or 200 with a conflict when `date` is not the current revision's; the
 * revisions page links the difference by the older revision's timestamp;
 * the logout is a link carrying the `sectok`. The journey
 * (dokuwiki_journey.ts): log in, create a page, edit it again, open its
 * revisions and the difference, log out.
 *
 * Measured 2026-11-26 on the stored recordings (15 steps each), converted
 * with the default options and run on a fresh instance with the one
 * variable the summary asks for: before, the conversion failed ("The HAR has
 * no API requests", exit 2: every page was dropped as an HTML document).
 * Kept as pages (har_rendered_app_test.ts), the login's cookie was captured
 * by its recorded name, which a fresh instance on another port does not
 * set: 1 of 15 (har_digest_cookie_name_test.ts); then the second save sent
 * the recorded `date` and was a conflict: 9 of 15
 * (har_hidden_state_test.ts); and the password was written into the flow,
 * the summary asking for nothing (har_password_input_test.ts). After them,
 * 15 of 15 on the first run and on a second run on the same instance, the
 * password asked as LOGIN_PASSWORD. Since html_answer.ts the `ajax.php` XHR
 * is the API's answer, not a page, so the recording is no longer "pages only":
 * the pages kept are those taking part in the session, and the login form shown
 * after the sign-out's redirect is dropped: 14 of 14, twice. The stored recordings run without a
 * browser; a new one is recorded in Chromium with `DOKUWIKI_FRESH=1`.
 */
import assert from "node:assert/strict";

import { dokuwikiLaunch, dokuwikiMissing, LOGIN } from "./dokuwiki.ts";
import { PAGE, recordJourney } from "./dokuwiki_journey.ts";
import { convertStored, type LoginApp, loginAppTests, passesTwice } from "./har_login_app.ts";

const missing = dokuwikiMissing();
const FIXTURES = new URL("./fixtures/dokuwiki/", import.meta.url).pathname;
const DOKUWIKI: LoginApp = { name: "dokuwiki", launch: dokuwikiLaunch, password: LOGIN.password };

/** The text of the journey's page on `origin`, as a visitor reads its source. */
async function pageText(origin: string): Promise<{ text: string }> {
  const res = await fetch(`${origin}/doku.php?id=${PAGE.id}&do=export_raw`);
  return { text: await res.text() };
}

/** The steps each stored recording converts to. */
const STEPS = 14;

/** Converts the stored recording `name` and runs it twice on one fresh instance: every step passes. */
async function storedPassesTwice(name: string, dir: string): Promise<void> {
  const converted = await convertStored(DOKUWIKI, `${FIXTURES}${name}`, dir);
  const results = await passesTwice(DOKUWIKI, converted, STEPS, pageText);
  for (const { text } of results) {
    assert.equal(text.replaceAll("\r\n", "\n").trimEnd(), PAGE.second.trimEnd());
  }
}

loginAppTests({
  label: "DokuWiki",
  app: DOKUWIKI,
  fixtures: FIXTURES,
  missing,
  steps: STEPS,
  storedPassesTwice: storedPassesTwice,
  record: recordJourney,
  freshMin: 13,
});
