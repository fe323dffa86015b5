/**
 * The journey a user takes through phpMyAdmin, driven in Chromium and
 * recorded as HAR (tests/support/record_har.ts): log in with the login form,
 * create a database, create a table with two columns in it, insert a row,
 * browse the table, run a query from the SQL tab, drop the database from its
 * operations, log out. phpMyAdmin's own links and forms do the work: most
 * are XHRs answered with JSON that holds the next page's HTML, and each
 * sends the `token` the login page handed out. Each click waits for the
 * answer it makes; every wait is bounded.
 *
 * Run as a script it records both forms on a fresh instance and stores them
 * in tests/real/fixtures/phpmyadmin/ (`deno run -A tests/real/phpmyadmin_journey.ts`).
 *
 * @module
 */
import type { Page, Response } from "playwright-core";
import { type Recordings, recordSession, writeRecordings } from "../support/record_har.ts";
import { start } from "./servers.ts";
import { LOGIN, phpmyadminLaunch, phpmyadminMissing } from "./phpmyadmin.ts";
import { publicRecording } from "./unleash_journey.ts";

/** What the journey makes: a database, a table with two columns, one row, a query. */
export const DATA = {
  database: "harbour_log",
  table: "tides",
  note: "high water",
  query: "SELECT note FROM tides WHERE id = 7",
} as const;

/** Waits for a 2xx answer whose route (`route=` of the URL or the form) is `route` while `act` runs. */
async function answered(page: Page, route: string, act: () => Promise<unknown>): Promise<Response> {
  const [response] = await Promise.all([
    page.waitForResponse((r) => {
      const url = new URL(r.url());
      const body = r.request().postData() ?? "";
      return url.searchParams.get("route") === route ||
        new URLSearchParams(body).get("route") === route;
    }, { timeout: 30_000 }),
    act(),
  ]);
  if (response.status() >= 300) throw new Error(`${route} answered ${response.status()}`);
  return response;
}

/** Clicks the top menu's tab `name` and waits for the page it loads. */
async function tab(page: Page, name: string, route: string): Promise<void> {
  await answered(page, route, () => page.locator("#topmenu a", { hasText: name }).first().click());
  await page.waitForLoadState("networkidle");
}

/** Logs in with the login form. */
async function logIn(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/index.php`);
  await page.fill("#input_username", LOGIN.username);
  await page.fill("#input_password", LOGIN.password);
  await Promise.all([page.waitForSelector("a.logout"), page.click("#input_go")]);
  await page.waitForLoadState("networkidle");
}

/** Creates the database from the Databases tab; the page then opens it (the answer names its URL). */
async function createDatabase(page: Page): Promise<void> {
  await tab(page, "Databases", "/server/databases");
  await page.fill("#text_create_db", DATA.database);
  await answered(page, "/server/databases/create", () => page.click("#buttonGo"));
  await page.locator("#createTableNameInput").waitFor({ timeout: 30_000 });
  await page.waitForLoadState("networkidle");
}

/** Creates the table (an `id` INT primary key, a `note` VARCHAR(40)) in the open database. */
async function createTable(page: Page): Promise<void> {
  await page.fill("#createTableNameInput", DATA.table);
  await page.fill("#createTableNumFieldsInput", "2");
  await answered(
    page,
    "/table/create",
    () => page.click("#createTableMinimalForm input[type=submit]"),
  );
  await page.fill("input[name='field_name[0]']", "id");
  await page.selectOption("select[name='field_type[0]']", "INT");
  await page.selectOption("select[name='field_key[0]']", "primary_0");
  const dialog = page.locator(".ui-dialog, .modal.show").last();
  await dialog.locator("button", { hasText: "Go" }).click({ timeout: 5_000 }).catch(() => {});
  await page.fill("input[name='field_name[1]']", "note");
  await page.selectOption("select[name='field_type[1]']", "VARCHAR");
  await page.fill("input[name='field_length[1]']", "40");
  await answered(page, "/table/create", () => page.click("input[name=do_save_data]"));
  await page.waitForLoadState("networkidle");
}

/** Inserts the row from the table's Insert tab. */
async function insertRow(page: Page): Promise<void> {
  await tab(page, "Insert", "/table/change");
  const inputs = page.locator("table.insertRowTable").first().locator(
    "input.textfield, textarea.char",
  );
  await inputs.nth(0).fill("7");
  await inputs.nth(1).fill(DATA.note);
  await answered(
    page,
    "/table/replace",
    () => page.locator("#buttonYes, input[value=Go]").first().click(),
  );
  await page.waitForLoadState("networkidle");
}

/** Runs the query from the SQL tab of the database. */
async function runQuery(page: Page): Promise<void> {
  await tab(page, "SQL", "/table/sql");
  // The SQL box is a CodeMirror editor: typed through its API, as pasting does.
  await page.evaluate((q) => {
    const g = globalThis as unknown as { codeMirrorEditor: { setValue(v: string): void } };
    g.codeMirrorEditor.setValue(q);
  }, DATA.query);
  await answered(page, "/import", () => page.click("#button_submit_query"));
  await page.locator(".sqlqueryresults", { hasText: DATA.note }).first().waitFor();
}

/** Drops the database from its Operations tab, confirming the dialog. */
async function dropDatabase(page: Page): Promise<void> {
  await answered(
    page,
    "/database/structure",
    () =>
      page.locator("#floating_menubar .breadcrumb a, #serverinfo a", { hasText: DATA.database })
        .first().click(),
  );
  await tab(page, "Operations", "/database/operations");
  await page.click("#drop_db_anchor");
  await answered(page, "/sql", () => page.click(".ui-dialog button.submitOK"));
  await page.waitForLoadState("networkidle");
}

/**
 * Records the journey on the instance at `origin`.
 *
 * @example
 * ```ts ignore
 * import { recordJourney } from "./phpmyadmin_journey.ts";
 * const { playwright } = await recordJourney("http://127.0.0.1:8080");
 * ```
 */
export async function recordJourney(origin: string): Promise<Recordings> {
  return await recordSession(async (page) => {
    await logIn(page, origin);
    await createDatabase(page);
    await createTable(page);
    await insertRow(page);
    await tab(page, "Browse", "/sql");
    await runQuery(page);
    await dropDatabase(page);
    await Promise.all([page.waitForSelector("#input_username"), page.click("a.logout")]);
    await page.waitForLoadState("networkidle");
  }, 180_000);
}

if (import.meta.main) {
  const missing = phpmyadminMissing();
  if (missing) throw new Error(missing);
  const instance = await start(phpmyadminLaunch());
  try {
    const { playwright, chromeHar } = await recordJourney(instance.origin);
    await writeRecordings(
      new URL("./fixtures/phpmyadmin/", import.meta.url).pathname,
      "journey",
      { playwright: publicRecording(playwright), chromeHar: publicRecording(chromeHar) },
    );
  } finally {
    await instance.close();
  }
}
