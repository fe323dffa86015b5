/**
 * `convert har` on a Rails app nobody here wrote: Redmine 5.0 from Debian
 * bookworm (tests/real/redmine.ts), run by `rails server` (WEBrick). Every
 * form carries the session's `authenticity_token` in a hidden input, masked
 * anew on every page, and the page's `<meta name="csrf-token">` holds it too
 * (the logout link's `data-method=post` posts it); the login renews the
 * session cookie `_redmine_session`; a create answers 302 to the new
 * resource (`/issues/1`); the issue form is multipart (an attachment input
 * left empty) and the edit goes as POST with `_method=patch` and the
 * issue's `lock_version`; changing the status reloads the form by an XHR
 * (`POST /issues/1/edit.js`, `X-CSRF-Token`). The journey
 * (redmine_journey.ts): log in as the administrator, create a project,
 * create an issue, edit it (status, a note), open the issues filtered, log
 * out.
 *
 * Measured 2026-11-26 on the stored recordings, converted with the default
 * options and run on a fresh instance with only the variables the summary
 * asks for: before, Playwright's passed 10 of 16 with `SESSION_COOKIE`
 * asked (the XHR dropped as a static asset) and 4 of 16 on a second run
 * (the project identifier sent as recorded), and chrome-har's did not
 * convert; after the fixes docs/real-servers.md lists (each with its
 * tests/convert test), 17 of 17 for both, twice, only `LOGIN_PASSWORD`
 * asked, and `--verify` passes every step. The stored recordings run without a browser; a new one
 * is recorded in Chromium with `REDMINE_FRESH=1`.
 */
import assert from "node:assert/strict";

import { LOGIN, redmineLaunch, redmineMissing } from "./redmine.ts";
import { recordJourney } from "./redmine_journey.ts";
import { convertStored, type LoginApp, loginAppTests, passesTwice } from "./har_login_app.ts";

const missing = redmineMissing();
const FIXTURES = new URL("./fixtures/redmine/", import.meta.url).pathname;
const REDMINE: LoginApp = { name: "redmine", launch: redmineLaunch, password: LOGIN.password };

/** Converts the stored recording `name` and runs it twice on one fresh instance: every step passes. */
async function storedPassesTwice(name: string, dir: string): Promise<void> {
  const converted = await convertStored(REDMINE, `${FIXTURES}${name}`, dir);
  const { flow, summary } = converted;
  // The edit opens the issue the run's create made, and the empty file input uploads nothing.
  assert.doesNotMatch(flow, /url: \$\{vars\.base_url\}\/issues\/1\b/, flow);
  assert.doesNotMatch(summary, /placeholder/, summary);
  assert.match(flow, /harbour-works-\$\{RUN_ID\}/, flow);
  await passesTwice(REDMINE, converted, 17);
}

loginAppTests({
  label: "Redmine",
  app: REDMINE,
  fixtures: FIXTURES,
  missing,
  steps: 17,
  storedPassesTwice: storedPassesTwice,
  record: recordJourney,
  freshMin: 16,
});
