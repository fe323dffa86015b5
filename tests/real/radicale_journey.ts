/**
 * The journey a user takes through Radicale's built-in web UI (`/.web/`),
 * driven in Chromium and recorded as HAR (tests/support/record_har.ts): log
 * in, create an address book and a calendar, rename the calendar, upload a
 * small `.ics` file (which makes a calendar of its own), delete the three,
 * log out. Each click waits for the WebDAV request it makes to be answered
 * with the status the UI expects; every wait is bounded.
 *
 * Run as a script it records both forms on a fresh instance and stores them
 * in tests/real/fixtures/radicale/ (`deno run -A tests/real/radicale_journey.ts`).
 *
 * @module
 */
import { Buffer } from "node:buffer";
import type { Page } from "playwright-core";
import { type Recordings, recordSession, writeRecordings } from "../support/record_har.ts";
import { start } from "./servers.ts";
import { RADICALE_USER, radicaleLaunch, radicaleMissing } from "./radicale.ts";
import { publicRecording } from "./unleash_journey.ts";

/** The names the user types for what they create, and the calendar's new name. */
export const NAMES = {
  addressBook: "Family contacts",
  calendar: "Team rota",
  renamed: "Team rota 2027",
};

/** The calendar file the user uploads (one event), kept beside the recordings. */
export const ICS_PATH = new URL("./fixtures/radicale/harbour.ics", import.meta.url).pathname;

/** Runs `act` and waits for the answer to a `method` request; throws unless it is `status`. */
async function answered(
  page: Page,
  method: string,
  status: number,
  act: () => Promise<unknown>,
): Promise<void> {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === method && r.status() !== 401, {
      timeout: 15_000,
    }),
    act(),
  ]);
  if (response.status() !== status) {
    throw new Error(`${method} ${response.url()} answered ${response.status()}, not ${status}`);
  }
}

/** The listed collection titled `title` exactly (the template is hidden). */
function listed(page: Page, title: string) {
  return page.locator("#collectionsscene article:not(.hidden)", {
    has: page.locator("[data-name=title]", { hasText: new RegExp(`^${title}$`) }),
  });
}

/** Fills the create or edit form in `scene` and submits it, waiting for `method`'s answer. */
async function submitForm(
  page: Page,
  scene: string,
  fields: { name: string; type?: string },
  method: string,
  status: number,
): Promise<void> {
  const form = page.locator(`#${scene}`);
  await form.locator("[data-name=displayname]").fill(fields.name);
  if (fields.type) await form.locator("[data-name=type]").selectOption(fields.type);
  await answered(page, method, status, () => form.locator("[data-name=submit]").click());
}

/** Deletes the listed collection titled `title` (Delete, then Yes). */
async function remove(page: Page, title: string): Promise<void> {
  await listed(page, title).locator("[data-name=delete]").click();
  const yes = page.locator("#deletecollectionscene [data-name=delete]");
  await answered(page, "DELETE", 200, () => yes.click());
  await listed(page, title).waitFor({ state: "detached" });
}

/**
 * Records the journey on the instance at `origin` (both HAR forms).
 *
 * @example
 * ```ts ignore
 * import { recordJourney } from "./radicale_journey.ts";
 * const { playwright } = await recordJourney("http://127.0.0.1:5232");
 * ```
 */
export function recordJourney(origin: string): Promise<Recordings> {
  return recordSession(async (page) => {
    page.setDefaultTimeout(20_000);
    const scenes = page.locator("#collectionsscene");
    await page.goto(`${origin}/.web/`);
    await page.fill("#loginscene [data-name=user]", RADICALE_USER.user);
    await page.fill("#loginscene [data-name=password]", RADICALE_USER.password);
    await answered(page, "PROPFIND", 207, () => page.click("#loginscene button[type=submit]"));
    await scenes.waitFor();
    await scenes.locator("[data-name=new]").click();
    const book = { name: NAMES.addressBook, type: "ADDRESSBOOK" };
    await submitForm(page, "createcollectionscene", book, "MKCOL", 201);
    await listed(page, NAMES.addressBook).waitFor();
    await scenes.locator("[data-name=new]").click();
    const calendar = { name: NAMES.calendar, type: "CALENDAR" };
    await submitForm(page, "createcollectionscene", calendar, "MKCOL", 201);
    await listed(page, NAMES.calendar).locator("[data-name=edit]").click();
    await submitForm(page, "editcollectionscene", { name: NAMES.renamed }, "PROPPATCH", 207);
    await listed(page, NAMES.renamed).waitFor();
    const [chooser] = await Promise.all([
      page.waitForEvent("filechooser"),
      scenes.locator("[data-name=upload]").click(),
    ]);
    const ics = await Deno.readFile(ICS_PATH);
    const file = { name: "harbour.ics", mimeType: "text/calendar", buffer: Buffer.from(ics) };
    await answered(page, "PUT", 201, () => chooser.setFiles(file));
    // The UI goes back to the list by itself once every file is sent: three collections.
    await scenes.locator("article:not(.hidden)").nth(2).waitFor();
    await remove(page, NAMES.addressBook);
    await remove(page, NAMES.renamed);
    await remove(page, await uploadedTitle(page));
    await page.click("#logoutview [data-name=link]");
    await page.locator("#loginscene").waitFor();
  }, 150_000);
}

/** The title the uploaded calendar got: the one collection the user did not name. */
async function uploadedTitle(page: Page): Promise<string> {
  const titles = await page.locator("#collectionsscene article:not(.hidden) [data-name=title]")
    .allTextContents();
  const title = titles.find((t) => !Object.values(NAMES).includes(t));
  if (!title) throw new Error(`no uploaded calendar among ${JSON.stringify(titles)}`);
  return title;
}

/**
 * A recording made public: the bodies of the app's own script and style
 * left out (their size and mime type kept), as Unleash's recordings are.
 */
export { publicRecording };

if (import.meta.main) {
  const missing = radicaleMissing();
  if (missing) throw new Error(missing);
  const instance = await start(radicaleLaunch());
  try {
    const { playwright, chromeHar } = await recordJourney(instance.origin);
    await writeRecordings(
      new URL("./fixtures/radicale/", import.meta.url).pathname,
      "journey",
      { playwright: publicRecording(playwright), chromeHar: publicRecording(chromeHar) },
    );
  } finally {
    await instance.close();
  }
}
