/**
 * `convert har` on a webmail nobody here wrote: Roundcube 1.6 from Debian
 * bookworm (tests/real/roundcube.ts), run by `php -S` on SQLite with a
 * Dovecot IMAP server of its own. Its login form posts a `_token` the page
 * handed out (302, `roundcube_sessid` renewed, `roundcube_sessauth` deleted
 * and set again); the mail page hands out the request token its XHRs send
 * as `X-Roundcube-Request` and its forms as `_token`; every action is an
 * AJAX `?_task=…&_action=…` call answered in JSON whose `exec` the page
 * runs, or a form posted in a frame; the compose opens by a redirect
 * naming its id (`_id`) in the `Location`'s query. The journey
 * (roundcube_journey.ts): log in, make a folder and rename it, open a
 * message, flag, unflag, mark it unread and read, move it to the folder,
 * save a draft, open it, change a preference, add a contact, delete the
 * folder, log out.
 *
 * Measured 2026-11-27 on the stored recordings (Chromium 156), converted
 * with the default options and run on a fresh instance with only what the
 * summary asks: before, both forms asked `RECORDED_SECRET` besides the
 * password, so the run was refused before sending anything; with the
 * recorded value given by hand, 20 of 38 (Playwright's HAR) and 2 of 38
 * (chrome-har's). The compose's redirect was dropped as a page, so its
 * `_id` came from nothing (har_redirect_query_id_test.ts); chrome-har put
 * the login's three `Set-Cookie` lines on the page after it and the
 * deletion stayed there, so the session cookie was read from a page that
 * sets none (har_redirect_deleted_cookie_test.ts). After both: only
 * LOGIN_PASSWORD asked, 39 of 39 twice, both forms. The stored recordings
 * run without a browser; a new one is recorded in Chromium with
 * `ROUNDCUBE_FRESH=1`.
 */
import assert from "node:assert/strict";

import { LOGIN, MESSAGES, roundcubeLaunch, roundcubeMissing } from "./roundcube.ts";
import { MADE, recordJourney } from "./roundcube_journey.ts";
import { convertStored, loginAppTests, passesTwice, rememberedApp } from "./har_login_app.ts";

const missing = roundcubeMissing();
const FIXTURES = new URL("./fixtures/roundcube/", import.meta.url).pathname;

/** The steps each stored recording converts to. */
const STEPS: Record<string, number> = { "journey.pw.har": 39, "journey.cdp.har": 39 };

/** Fresh instances, their folders remembered: the runs read their mail and database. */
const ROUNDCUBE = rememberedApp("roundcube", roundcubeLaunch, LOGIN.password);

/** The files of a Maildir folder (`""` the INBOX), none when it is gone. */
async function messages(dir: string, folder: string): Promise<number> {
  const base = `${dir}/mail/${LOGIN.username}/Maildir/${folder ? `.${folder}/` : ""}`;
  let n = 0;
  for (const sub of ["new", "cur"]) {
    try {
      for await (const _ of Deno.readDir(`${base}${sub}`)) n++;
    } catch {
      // The folder is gone (or never made).
    }
  }
  return n;
}

/** What a query of the instance's database answers, one line per row. */
async function sql(dir: string, query: string): Promise<string> {
  const out = await new Deno.Command("sqlite3", {
    args: [`${dir}/roundcube.sqlite`, query],
    stdout: "piped",
  }).output();
  return new TextDecoder().decode(out.stdout).trim();
}

/** What a run left in the latest instance: its mail folders, contacts and preferences. */
async function state(_origin: string) {
  const dir = ROUNDCUBE.latest();
  return {
    inbox: await messages(dir, ""),
    drafts: await messages(dir, "Drafts"),
    folder: await messages(dir, MADE.renamed) + await messages(dir, MADE.folder),
    contacts: await sql(dir, "SELECT email FROM contacts WHERE del = 0"),
    pagesize: /mail_pagesize";i:25/.test(await sql(dir, "SELECT preferences FROM users")),
  };
}

/** Converts the stored recording `name` and runs it twice on one fresh instance: every step passes. */
async function storedPassesTwice(name: string, dir: string): Promise<void> {
  const converted = await convertStored(ROUNDCUBE, `${FIXTURES}${name}`, dir);
  const [first, second] = await passesTwice(ROUNDCUBE, converted, STEPS[name], state);
  // The first run moved a message into the folder, then deleted both; saved a draft, a contact
  // and the page size.
  assert.equal(first.inbox, MESSAGES.length - 1);
  assert.equal(first.folder, 0);
  assert.equal(first.drafts, 1);
  assert.equal(first.contacts, MADE.contact.email);
  assert.ok(first.pagesize);
  // The second saved another draft (a compose of its own) and, as the form does, another contact.
  assert.equal(second.drafts, 2);
  // The recorded message (`_uid=1`) went with the folder: the second run's marks and move find none.
  assert.equal(second.inbox, MESSAGES.length - 1);
  assert.equal(second.contacts, `${MADE.contact.email}\n${MADE.contact.email}`);
}

loginAppTests({
  label: "Roundcube",
  app: ROUNDCUBE,
  fixtures: FIXTURES,
  missing,
  steps: STEPS["journey.pw.har"],
  storedPassesTwice,
  record: recordJourney,
  freshMin: 36,
});
