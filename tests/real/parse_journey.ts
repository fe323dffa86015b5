/**
 * The journey a user takes through Parse Dashboard (tests/real/parse.ts), driven in Chromium
 * and recorded as HAR (tests/support/record_har.ts): log in (a form with a CSRF token, a session
 * cookie), open the data browser, create a class, add two columns, add a row and edit one of its
 * cells, apply a query filter, create a second class and delete it, log out. The page reads
 * `parse-dashboard-config.json` (the app id and the master key) and its Parse SDK sends both in
 * the JSON body of every call to `/parse` (`_ApplicationId`, `_MasterKey`, `_method`). Requests
 * to any host but 127.0.0.1 (the dashboard's web fonts) are refused in the browser. Every wait is
 * bounded.
 *
 * Run as a script it records both forms on a fresh server and stores them in
 * tests/real/fixtures/parse/ (`deno run -A tests/real/parse_journey.ts`).
 *
 * @module
 */
import type { Page, Response } from "playwright-core";
import { type Recordings, recordSession, writeRecordings } from "../support/record_har.ts";
import { prepare, start } from "./servers.ts";
import { publicRecording } from "./unleash_journey.ts";
import { PARSE, PARSE_SETUP, withParse } from "./parse.ts";

/** What the user types. */
export const NAMES = {
  klass: "Voyage",
  columns: ["title", "port"],
  row: ["Lisbon run", "Porto"],
  edited: "Faro",
  scratch: "Scratch",
};

/** Runs `act` and waits for Parse Server's 2xx answer to a call whose path matches `path`. */
async function parseCall(page: Page, path: RegExp, act: () => Promise<unknown>): Promise<void> {
  const [response] = await Promise.all([
    page.waitForResponse(
      (r: Response) => r.request().method() === "POST" && path.test(new URL(r.url()).pathname),
      { timeout: 30_000 },
    ),
    act(),
  ]);
  if (response.status() >= 300) {
    throw new Error(`${response.url()}: ${response.status()} ${await response.text()}`);
  }
}

/** Creates the class `name` from the browser's sidebar. */
async function createClass(page: Page, name: string): Promise<void> {
  await page.getByText("Create a class", { exact: true }).click({ timeout: 30_000 });
  await page.fill("input[placeholder^='Give it a good name']", name);
  await parseCall(
    page,
    new RegExp(`^/parse/schemas/${name}$`),
    () => page.locator("button", { hasText: /^Create$/ }).click(),
  );
}

/** Adds the two String columns through the "Add a new column" dialog. */
async function addColumns(page: Page): Promise<void> {
  await page.locator("a, button", { hasText: "Add a new column" }).first().click();
  const [first, second] = NAMES.columns;
  const name = "input[placeholder^='Give it a good name']";
  await page.fill(name, first);
  const schema = new RegExp(`^/parse/schemas/${NAMES.klass}$`);
  await parseCall(
    page,
    schema,
    () => page.locator("button", { hasText: /^Add & continue$/ }).click(),
  );
  await page.fill(name, second);
  await parseCall(page, schema, () => page.locator("button", { hasText: /^Add$/ }).click());
}

/** Types `text` into the cell `cell` (a double click opens its editor). */
async function typeInto(page: Page, cell: ReturnType<Page["locator"]>, text: string) {
  await cell.dblclick({ timeout: 30_000 });
  await page.keyboard.press("Control+A");
  await page.keyboard.type(text);
  await page.keyboard.press("Enter");
}

/** Adds one row with both cells filled, then edits its second cell. */
async function addRowAndEdit(page: Page): Promise<void> {
  await page.locator("a, button, span", { hasText: /^Add Row$/ }).first().click();
  const blank = page.locator("span", { hasText: /^\(undefined\)$/ });
  // The new row's blanks: objectId, createdAt, updatedAt, then the two columns.
  await blank.nth(4).waitFor({ timeout: 30_000 });
  await typeInto(page, blank.nth(3), NAMES.row[0]);
  await typeInto(page, blank.nth(3), NAMES.row[1]);
  const rows = new RegExp(`^/parse/classes/${NAMES.klass}$`);
  await parseCall(page, rows, () => page.locator("button", { hasText: /^Add$/ }).click());
  const cell = page.locator("span", { hasText: new RegExp(`^${NAMES.row[1]}$`) }).first();
  const row = new RegExp(`^/parse/classes/${NAMES.klass}/\\w+$`);
  await parseCall(page, row, () => typeInto(page, cell, NAMES.edited));
}

/** Applies the filter the dialog proposes (`objectId exists`). */
async function filter(page: Page): Promise<void> {
  await page.locator("a, button, span", { hasText: /^Filter$/ }).first().click();
  const rows = new RegExp(`^/parse/classes/${NAMES.klass}$`);
  await parseCall(page, rows, () => page.locator("button", { hasText: /^Apply$/ }).click());
}

/** Deletes the open class: Edit, "Delete this class", its name typed, Delete. */
async function deleteClass(page: Page, name: string): Promise<void> {
  await page.locator("a, button, span", { hasText: /^Edit$/ }).first().click();
  await page.getByText("Delete this class", { exact: true }).click();
  await page.locator("[data-modal] input").first().fill(name, { timeout: 30_000 });
  await parseCall(
    page,
    new RegExp(`^/parse/schemas/${name}$`),
    () => page.locator("[data-modal] button", { hasText: /^Delete$/ }).click(),
  );
}

/**
 * Records the journey on the server at `origin`.
 *
 * @example
 * ```ts ignore
 * import { recordJourney } from "./parse_journey.ts";
 * const { playwright } = await recordJourney("http://127.0.0.1:1337");
 * ```
 */
export async function recordJourney(origin: string): Promise<Recordings> {
  return await recordSession(async (page) => {
    await page.route((u) => u.hostname !== "127.0.0.1", (r) => r.abort());
    await page.goto(`${origin}/dashboard/login`);
    await page.fill("input[name=username]", PARSE_SETUP.user, { timeout: 30_000 });
    await page.fill("input[name=password]", PARSE_SETUP.pass);
    await parseCall(page, /^\/parse\/serverInfo$/, () => page.click("input[type=submit]"));
    await page.goto(`${origin}/dashboard/apps/Journal/browser`);
    await createClass(page, NAMES.klass);
    await page.waitForURL(new RegExp(`/browser/${NAMES.klass}$`), { timeout: 30_000 });
    await addColumns(page);
    await addRowAndEdit(page);
    await filter(page);
    await createClass(page, NAMES.scratch);
    await page.waitForURL(new RegExp(`/browser/${NAMES.scratch}$`), { timeout: 30_000 });
    await deleteClass(page, NAMES.scratch);
    await page.waitForLoadState("networkidle", { timeout: 30_000 });
    await page.getByText("Logout", { exact: true }).click();
    await page.waitForURL(/\/login/, { timeout: 30_000 });
  }, 240_000);
}

if (import.meta.main) {
  const record = async (o: string) => {
    const recorded = await recordJourney(o);
    await writeRecordings(new URL("./fixtures/parse/", import.meta.url).pathname, "journey", {
      playwright: publicRecording(recorded.playwright),
      chromeHar: publicRecording(recorded.chromeHar),
    });
  };
  if (Deno.args[0]) await record(Deno.args[0]);
  else {
    const prepared = await prepare(PARSE);
    if (prepared.ignoredBecause) throw new Error(prepared.ignoredBecause);
    await withParse(prepared.install!.prefix, start, (s) => record(s.origin));
  }
}
