/**
 * The journey a user takes through Roundcube, driven in Chromium and
 * recorded as HAR (tests/support/record_har.ts): log in with the login
 * form, make a folder in the settings and rename it, open the first
 * message of the INBOX, flag it, unflag it, mark it unread and read again,
 * move it to the folder, write a message and save it as a draft, open the
 * draft, change a preference, add a contact, delete the folder, log out.
 * Every action goes through the page's own code (`rcmail.command`, what
 * its buttons call; the settings' and contacts' forms in their frames),
 * and each waits for the `_action` call it makes; every wait is bounded.
 *
 * Run as a script it records both forms on a fresh instance and stores them
 * in tests/real/fixtures/roundcube/ (`deno run -A tests/real/roundcube_journey.ts`).
 *
 * @module
 */
import type { Frame, Page, Response } from "playwright-core";
import { type Recordings, recordSession, writeRecordings } from "../support/record_har.ts";
import { start } from "./servers.ts";
import { LOGIN, roundcubeLaunch, roundcubeMissing } from "./roundcube.ts";
import { publicRecording } from "./unleash_journey.ts";

/** What the journey makes: the folder (then its new name), the draft and the contact. */
export const MADE = {
  folder: "Harbour",
  renamed: "Harbour notes",
  draft: "Mooring request",
  contact: { first: "Ada", last: "Pilot", email: "ada.pilot@example.org" },
} as const;

/** Waits for the call whose query or form says `_action=ACTION` while `act` runs. */
async function call(page: Page, action: string, act: () => Promise<unknown>): Promise<Response> {
  const wanted = new RegExp(`(^|[?&])_action=${action}(&|$)`);
  const [response] = await Promise.all([
    page.waitForResponse((r) =>
      wanted.test(new URL(r.url()).search.slice(1)) || wanted.test(r.request().postData() ?? "")
    ),
    act(),
  ]).catch((error) => {
    throw new Error(`waiting for _action=${action} (${act}): ${error}`);
  });
  await page.waitForTimeout(300); // the page applies the answer's commands
  return response;
}

/** The frame named `name` once it shows a page whose URL says `_action=ACTION`. */
async function frame(page: Page, name: string, action: string): Promise<Frame> {
  for (let poll = 0; poll < 100; poll++) {
    const found = page.frame({ name });
    if (found && found.url().includes(`_action=${action}`)) {
      await found.waitForLoadState("load");
      return found;
    }
    await page.waitForTimeout(100);
  }
  throw new Error(`no frame ${name} showing _action=${action}`);
}

/** Waits until the page is not busy and `command` is enabled (a click would do nothing before). */
async function idle(page: Page, command: string): Promise<void> {
  await page.waitForFunction(
    `window.rcmail && !rcmail.busy && rcmail.commands[${JSON.stringify(command)}]`,
    undefined,
    { timeout: 10_000 },
  );
}

/** The id of a folder's row in the settings' list (Roundcube's `html_identifier`: URL-safe base64). */
function folderRow(name: string): string {
  const base64 = btoa(String.fromCharCode(...new TextEncoder().encode(name)));
  return `rcmli${base64.replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "")}`;
}

/** Logs in with the login form and waits for the INBOX's list. */
async function logIn(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/`);
  await page.fill("#rcmloginuser", LOGIN.username);
  await page.fill("#rcmloginpwd", LOGIN.password);
  await call(page, "list", () => page.click("#rcmloginsubmit"));
}

/** In the settings' folders: make the folder, rename it. */
async function folders(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/?_task=settings&_action=folders`);
  await call(page, "add-folder", () => page.evaluate("rcmail.command('create-folder')"));
  let form = await frame(page, "preferences-frame", "add-folder");
  await form.fill("input[name=_name]", MADE.folder);
  await call(page, "save-folder", () => form.evaluate("rcmail.command('save')"));
  await call(page, "edit-folder", () => page.click(`#${folderRow(MADE.folder)}`));
  form = await frame(page, "preferences-frame", "edit-folder");
  await form.fill("input[name=_name]", MADE.renamed);
  await call(page, "save-folder", () => form.evaluate("rcmail.command('save')"));
}

/** In the INBOX: open the first message, flag, unflag, unread, read, move it to the folder. */
async function mail(page: Page, origin: string): Promise<void> {
  await call(page, "list", () => page.goto(`${origin}/?_task=mail&_mbox=INBOX`));
  const uid = await page.evaluate("Math.min(...Object.keys(rcmail.message_list.rows).map(Number))");
  await call(page, "preview", () => page.evaluate(`rcmail.message_list.select(${uid})`));
  for (const flag of ["flagged", "unflagged", "unread", "read"]) {
    await idle(page, "mark");
    await call(page, "mark", () => page.evaluate(`rcmail.command('mark', '${flag}')`));
  }
  await idle(page, "move");
  await call(
    page,
    "move",
    () => page.evaluate(`rcmail.command('move', ${JSON.stringify(MADE.renamed)})`),
  );
}

/** Writes a message and saves it as a draft, then opens the draft in the Drafts folder. */
async function draft(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/?_task=mail&_action=compose`);
  await page.waitForURL(/_id=/);
  await idle(page, "savedraft");
  await page.evaluate(`$("#_to").val(${JSON.stringify(MADE.contact.email)})`);
  await page.fill("#compose-subject", MADE.draft);
  await page.fill("#composebody", "Berth 4 for two nights, please.");
  await call(page, "send", () => page.evaluate("rcmail.command('savedraft')"));
  await call(page, "list", () => page.goto(`${origin}/?_task=mail&_mbox=Drafts`));
  const uid = await page.evaluate("Math.min(...Object.keys(rcmail.message_list.rows).map(Number))");
  await call(page, "preview", () => page.evaluate(`rcmail.message_list.select(${uid})`));
}

/** A preference (the messages per page) and a contact, each in its form's frame. */
async function settings(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/?_task=settings&_action=preferences`);
  await call(
    page,
    "edit-prefs",
    () => page.evaluate("rcmail.sections_list.select('mailbox')"),
  );
  const prefs = await frame(page, "preferences-frame", "edit-prefs");
  await prefs.fill("input[name=_mail_pagesize]", "25");
  await call(page, "save-prefs", () => prefs.evaluate("rcmail.command('save')"));
  await call(page, "list", () => page.goto(`${origin}/?_task=addressbook`));
  await call(page, "add", () => page.evaluate("rcmail.command('add')"));
  const contact = await frame(page, "contact-frame", "add");
  await contact.fill("input[name=_firstname]", MADE.contact.first);
  await contact.fill("input[name=_surname]", MADE.contact.last);
  await contact.fill("input[name='_email[]']", MADE.contact.email);
  await call(page, "save", () => contact.evaluate("rcmail.command('save')"));
}

/** Deletes the folder (and the message in it) after the page's confirmation. */
async function deleteFolder(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/?_task=settings&_action=folders`);
  await call(page, "edit-folder", () => page.click(`#${folderRow(MADE.renamed)}`));
  await idle(page, "delete-folder");
  await page.evaluate("rcmail.command('delete-folder')");
  const confirm = page.locator(".ui-dialog button.mainaction.delete");
  await confirm.waitFor();
  await call(page, "delete-folder", () => confirm.click());
}

/**
 * Records the journey on the instance at `origin`.
 *
 * @example
 * ```ts ignore
 * import { recordJourney } from "./roundcube_journey.ts";
 * const { playwright } = await recordJourney("http://127.0.0.1:8080");
 * ```
 */
export async function recordJourney(origin: string): Promise<Recordings> {
  return await recordSession(async (page) => {
    await logIn(page, origin);
    await folders(page, origin);
    await mail(page, origin);
    await draft(page, origin);
    await settings(page, origin);
    await deleteFolder(page, origin);
    await Promise.all([
      page.waitForURL(/_task=log(in|out)/),
      page.evaluate("rcmail.command('switch-task', 'logout')"),
    ]);
    await page.waitForLoadState("load");
  }, 120_000);
}

if (import.meta.main) {
  const missing = roundcubeMissing();
  if (missing) throw new Error(missing);
  const instance = await start(roundcubeLaunch());
  try {
    const { playwright, chromeHar } = await recordJourney(instance.origin);
    await writeRecordings(
      Deno.args[0] ?? new URL("./fixtures/roundcube/", import.meta.url).pathname,
      "journey",
      { playwright: publicRecording(playwright), chromeHar: publicRecording(chromeHar) },
    );
  } finally {
    await instance.close();
  }
}
