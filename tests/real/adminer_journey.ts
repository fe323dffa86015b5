/**
 * The journey a user takes through Adminer, driven in Chromium and recorded
 * as HAR (tests/support/record_har.ts): log in with the login form (server,
 * user, password, database), create a table with two columns, insert two
 * rows, edit one, search the table, run an SQL command, drop the table, log
 * out. Every page is a server-rendered form posting the `token` its page
 * handed out, answered by a redirect; each click waits for its page and what
 * it loads (tests/support/page_settle.ts), bounded.
 *
 * Run as a script it records both forms on a fresh instance and stores them
 * in tests/real/fixtures/adminer/ (`deno run -A tests/real/adminer_journey.ts`).
 *
 * @module
 */
import type { Page } from "playwright-core";
import { type Recordings, recordSession, writeRecordings } from "../support/record_har.ts";
import { settle } from "../support/page_settle.ts";
import { start } from "./servers.ts";
import { adminerLaunch, adminerMissing, DATABASE, LOGIN } from "./adminer.ts";
import { publicRecording } from "./unleash_journey.ts";

/** What the journey makes: a table of two columns, its rows, the edit, the search, a query. */
export const DATA = {
  table: "tides",
  notes: ["high water", "low water"],
  edited: "slack water",
  query: "SELECT note FROM tides ORDER BY id",
} as const;

/** Clicks what `selector` finds and waits for the page it opens. */
function click(page: Page, selector: string): Promise<void> {
  return settle(page, () => page.locator(selector).first().click());
}

/** Logs in with the login form to the server `localhost` (the socket PHP is given) and the database. */
async function logIn(page: Page, origin: string): Promise<void> {
  await settle(page, () => page.goto(`${origin}/index.php`));
  await page.fill("input[name='auth[server]']", "localhost");
  await page.fill("input[name='auth[username]']", LOGIN.username);
  await page.fill("input[name='auth[password]']", LOGIN.password);
  await page.fill("input[name='auth[db]']", DATABASE);
  await click(page, "input[type=submit][value=Login]");
  await page.locator("#logout").waitFor();
}

/** Creates the table: an auto-increment `id` and a `note` VARCHAR(40). */
async function createTable(page: Page): Promise<void> {
  await click(page, "#content a[href$='&create=']");
  await page.fill("input[name=name]", DATA.table);
  // The form adds the next column's row as the user types the name of the last; the row's
  // fields are named by the script, so they are found by their place.
  const row = (n: number) => page.locator("#edit-fields tbody tr").nth(n);
  await row(0).locator("input[name$='[field]']").pressSequentially("id");
  await page.check("input[name=auto_increment_col][value='1']");
  await row(1).locator("input[name$='[field]']").pressSequentially("note");
  await row(1).locator("select[name$='[type]']").selectOption("varchar");
  await row(1).locator("input[name$='[length]']").fill("40");
  await click(page, "input[type=submit][value=Save]");
  await page.locator("#content a[href*='&select=']").first().waitFor();
}

/** Inserts a row from the table's "New item" form. */
async function insertRow(page: Page, note: string): Promise<void> {
  await click(page, `#content a[href$='&edit=${DATA.table}']`);
  await page.fill("[name='fields[note]']", note);
  await click(page, "input[type=submit][value=Save]");
}

/** Edits the first row from the table's data page. */
async function editRow(page: Page): Promise<void> {
  await click(page, `#content a[href$='&select=${DATA.table}']`);
  await click(page, "table#table a.edit, table#table a[href*='&edit=']");
  await page.fill("[name='fields[note]']", DATA.edited);
  await click(page, "input[type=submit][value=Save]");
}

/** Searches the table's data for the edited note. */
async function search(page: Page): Promise<void> {
  await page.click("a[href='#fieldset-search']");
  await page.selectOption("select[name='where[0][col]']", "note");
  await page.fill("input[name='where[0][val]']", DATA.edited);
  await click(page, "input[type=submit][value=Select]");
  await page.locator("table#table", { hasText: DATA.edited }).waitFor();
}

/** Runs the query from the "SQL command" page. */
async function runQuery(page: Page): Promise<void> {
  await click(page, "#menu a[href$='&sql=']");
  // The query box is a highlighting editor over a hidden textarea: typed in, as a user does.
  await page.locator("pre.sqlarea").click();
  await page.keyboard.type(DATA.query);
  await click(page, "input[type=submit][value=Execute]");
  await page.locator("#content table", { hasText: DATA.notes[1] }).waitFor();
}

/** Drops the table from its "Alter table" page, confirming. */
async function dropTable(page: Page): Promise<void> {
  await click(
    page,
    `#tables a[href$='&table=${DATA.table}'], #menu a[href$='&table=${DATA.table}']`,
  );
  await click(page, `#content a[href$='&create=${DATA.table}']`);
  page.once("dialog", (d) => void d.accept());
  await click(page, "input[name=drop]");
}

/**
 * Records the journey on the instance at `origin`.
 *
 * @example
 * ```ts ignore
 * import { recordJourney } from "./adminer_journey.ts";
 * const { playwright } = await recordJourney("http://127.0.0.1:8080");
 * ```
 */
export async function recordJourney(origin: string): Promise<Recordings> {
  return await recordSession(async (page) => {
    await logIn(page, origin);
    await createTable(page);
    for (const note of DATA.notes) await insertRow(page, note);
    await editRow(page);
    await search(page);
    await runQuery(page);
    await dropTable(page);
    await click(page, "#logout");
    await page.locator("input[name='auth[username]']").waitFor();
  }, 180_000);
}

if (import.meta.main) {
  const missing = adminerMissing();
  if (missing) throw new Error(missing);
  const instance = await start(adminerLaunch());
  try {
    const { playwright, chromeHar } = await recordJourney(instance.origin);
    await writeRecordings(
      new URL("./fixtures/adminer/", import.meta.url).pathname,
      "journey",
      { playwright: publicRecording(playwright), chromeHar: publicRecording(chromeHar) },
    );
  } finally {
    await instance.close();
  }
}
