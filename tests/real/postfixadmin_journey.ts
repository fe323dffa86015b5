/**
 * The journey a user takes through PostfixAdmin, driven in Chromium and
 * recorded as HAR (tests/support/record_har.ts): log in as the superadmin,
 * add a domain, a mailbox with its password and an alias to it, edit the
 * mailbox's name and quota, disable and enable it, add an admin for the
 * domain, then delete the alias, the mailbox, the admin and the domain
 * (each a POST form behind the page's confirmation), log out. Every form
 * carries the session's `token`, and so does the query of the
 * enable/disable links. Each click waits for the page it loads; every wait
 * is bounded.
 *
 * Run as a script it records both forms on a fresh instance and stores them
 * in tests/real/fixtures/postfixadmin/ (`deno run -A tests/real/postfixadmin_journey.ts`).
 *
 * @module
 */
import type { Page } from "playwright-core";
import { type Recordings, recordSession, writeRecordings } from "../support/record_har.ts";
import { start } from "./servers.ts";
import { LOGIN, postfixadminLaunch, postfixadminMissing } from "./postfixadmin.ts";
import { publicRecording } from "./unleash_journey.ts";

/** What the journey makes: the domain, its mailbox (and the typed password), alias and admin. */
export const MADE = {
  domain: "harbour.example",
  mailbox: { local: "skipper", name: "Ship Skipper", quota: "6", password: "Tide-Mark-2048" },
  edited: { name: "Harbour Skipper", quota: "9" },
  alias: { local: "moorings" },
  admin: { username: "keeper@harbour.example", password: "Pier-Light-4096" },
} as const;

/** The mailbox's address. */
export const MAILBOX = `${MADE.mailbox.local}@${MADE.domain}`;

/** Clicks (or runs `act`) and waits for the page it loads. */
async function load(page: Page, act: () => Promise<unknown>): Promise<void> {
  await Promise.all([page.waitForNavigation({ timeout: 15_000 }), act()]);
  await page.waitForLoadState("load");
}

/** Fills the form field named `value[name]`. */
function field(page: Page, name: string) {
  return page.locator(`form [name="value[${name}]"]`);
}

/** Submits the edit form shown. */
async function save(page: Page): Promise<void> {
  await load(page, () => page.click("form input[type=submit][name=submit]"));
}

/** Adds the domain, its mailbox (no welcome mail: no SMTP here) and an alias to it. */
async function add(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/edit.php?table=domain`);
  await field(page, "domain").fill(MADE.domain);
  await field(page, "description").fill("The harbour office");
  await save(page);
  await page.goto(`${origin}/edit.php?table=mailbox&domain=${MADE.domain}`);
  await field(page, "local_part").fill(MADE.mailbox.local);
  await field(page, "password").fill(MADE.mailbox.password);
  await field(page, "password2").fill(MADE.mailbox.password);
  await field(page, "name").fill(MADE.mailbox.name);
  await field(page, "quota").fill(MADE.mailbox.quota);
  await field(page, "welcome_mail").uncheck();
  await save(page);
  await page.goto(`${origin}/edit.php?table=alias&domain=${MADE.domain}`);
  await field(page, "localpart").fill(MADE.alias.local);
  await field(page, "goto").fill(MAILBOX);
  await save(page);
}

/** Edits the mailbox's name and quota from the domain's list, then disables and enables it. */
async function editMailbox(page: Page, origin: string): Promise<void> {
  const list = `${origin}/list-virtual.php?domain=${MADE.domain}`;
  await page.goto(list);
  await load(page, () => page.click(`a[href^="edit.php?table=mailbox&edit="]`));
  await field(page, "name").fill(MADE.edited.name);
  await field(page, "quota").fill(MADE.edited.quota);
  await save(page);
  for (const active of ["0", "1"]) {
    await page.goto(list);
    await load(page, () => page.click(`a[href*="table=mailbox"][href*="active=${active}"]`));
  }
}

/** Adds an admin of the domain. */
async function addAdmin(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/edit.php?table=admin`);
  await field(page, "username").fill(MADE.admin.username);
  await field(page, "password").fill(MADE.admin.password);
  await field(page, "password2").fill(MADE.admin.password);
  await page.selectOption(`form [name="value[domains][]"]`, MADE.domain);
  await save(page);
}

/** Deletes the row whose delete form names `id` on the list at `url`, accepting the confirmation. */
async function remove(page: Page, url: string, id: string): Promise<void> {
  await page.goto(url);
  page.once("dialog", (dialog) => dialog.accept());
  const form = page.locator(`form[action="delete.php"]`, {
    has: page.locator(`input[name=delete][value="${id}"]`),
  });
  await load(page, () => form.locator("button").click());
}

/**
 * Records the journey on the instance at `origin`.
 *
 * @example
 * ```ts ignore
 * import { recordJourney } from "./postfixadmin_journey.ts";
 * const { playwright } = await recordJourney("http://127.0.0.1:8080");
 * ```
 */
export async function recordJourney(origin: string): Promise<Recordings> {
  return await recordSession(async (page) => {
    await page.goto(`${origin}/login.php`);
    await page.fill("input[name=fUsername]", LOGIN.username);
    await page.fill("input[name=fPassword]", LOGIN.password);
    await load(page, () => page.click("form[name=frmLogin] [type=submit]"));
    await add(page, origin);
    await editMailbox(page, origin);
    await addAdmin(page, origin);
    const list = `${origin}/list-virtual.php?domain=${MADE.domain}`;
    await remove(page, list, `${MADE.alias.local}@${MADE.domain}`);
    await remove(page, list, MAILBOX);
    await remove(page, `${origin}/list.php?table=admin`, MADE.admin.username);
    await remove(page, `${origin}/list.php?table=domain`, MADE.domain);
    await load(page, () => page.click(`a[href="login.php"]`));
  }, 120_000);
}

if (import.meta.main) {
  const missing = postfixadminMissing();
  if (missing) throw new Error(missing);
  const instance = await start(postfixadminLaunch());
  try {
    const { playwright, chromeHar } = await recordJourney(instance.origin);
    await writeRecordings(
      Deno.args[0] ?? new URL("./fixtures/postfixadmin/", import.meta.url).pathname,
      "journey",
      { playwright: publicRecording(playwright), chromeHar: publicRecording(chromeHar) },
    );
  } finally {
    await instance.close();
  }
}
