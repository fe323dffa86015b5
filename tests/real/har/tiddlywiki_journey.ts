/**
 * The journey a TiddlyWiki user takes through the wiki in Chromium, through
 * the product's own UI: open the wiki (its client loads the tiddler list from
 * `GET /recipes/default/tiddlers.json`), create a tiddler with a title and
 * text and save it, edit its text, tag it, then delete it. The client syncs
 * each change on a timer; every step waits for the server's answer to that
 * sync (a `PUT` or `DELETE` of the tiddler), never for a time.
 *
 * @module
 */
import type { Page, Response } from "playwright-core";

/** The tiddler the journey creates, and what it writes into it. */
export const TIDDLER_TITLE = "Orders intake";
/** The text typed when the tiddler is created. */
export const FIRST_TEXT = "Ship the blue crates by Friday.";
/** The text it is changed to. */
export const SECOND_TEXT = "Ship the blue crates by Monday.";
/** The tag the tiddler is given. */
export const TAG = "warehouse";

const TIDDLER = `[data-tiddler-title="${TIDDLER_TITLE}"]`;
const EDITOR = ".tc-tiddler-edit-frame";

/** One of the core's toolbar buttons, by the class TiddlyWiki derives from its title. */
const core = (name: string) => `button[class~="tc-btn-%24%3A%2Fcore%2Fui%2FButtons%2F${name}"]`;

/** Whether `r` answers the sync `method` of the journey's tiddler with a success. */
function syncOf(method: string): (r: Response) => boolean {
  const path = method === "DELETE" ? "/bags/default/tiddlers/" : "/recipes/default/tiddlers/";
  return (r) =>
    r.request().method() === method &&
    decodeURIComponent(new URL(r.url()).pathname) === path + TIDDLER_TITLE;
}

/** Runs `act`, then waits for the server's answer to the sync it causes; it must be a success. */
async function synced(page: Page, method: string, act: () => Promise<void>): Promise<void> {
  // The client syncs within a second or so of a change; a busy machine gets 30 s.
  const answered = page.waitForResponse(syncOf(method), { timeout: 30_000 });
  // When `act` throws, its error is the one to report, not the wait's.
  answered.catch(() => {});
  await act();
  const response = await answered;
  if (!response.ok()) throw new Error(`${method} ${response.url()} answered ${response.status()}`);
}

/** Opens the tiddler's editor from its view, by its edit button. */
async function edit(page: Page): Promise<void> {
  await page.locator(`${TIDDLER} ${core("edit")}`).click();
  await page.locator(`${EDITOR} input.tc-titlebar`).waitFor();
}

/** Types `text` into the body editor of the tiddler open for editing (a framed textarea). */
async function typeBody(page: Page, text: string): Promise<void> {
  const framed = page.frameLocator(`${EDITOR} iframe.tc-edit-texteditor-body`)
    .locator("textarea");
  await framed.fill(text);
}

/** Confirms the edit (the tick button) and waits for its editor to close. */
async function done(page: Page): Promise<void> {
  await page.locator(`${EDITOR} ${core("save")}`).click();
  await page.locator(EDITOR).waitFor({ state: "detached" });
}

/**
 * Drives the whole journey on the wiki at `origin`; throws when the product
 * does not show, or the server does not answer, what each step should do.
 */
export async function driveTiddlyWiki(page: Page, origin: string): Promise<void> {
  // Only the instance: anything else is refused, not recorded as sent.
  await page.route((url) => url.origin !== origin, (route) => route.abort());
  const listed = page.waitForResponse((r) =>
    new URL(r.url()).pathname === "/recipes/default/tiddlers.json"
  );
  await page.goto(`${origin}/`);
  await listed;
  // Create: the sidebar's "new tiddler" button opens a draft; give it a title and text.
  await page.locator(core("new-tiddler")).first().click();
  const title = page.locator(`${EDITOR} input.tc-titlebar`);
  await title.fill(TIDDLER_TITLE);
  await typeBody(page, FIRST_TEXT);
  await synced(page, "PUT", () => done(page));
  // Edit: change its text.
  await edit(page);
  await typeBody(page, SECOND_TEXT);
  await synced(page, "PUT", () => done(page));
  // Tag it.
  await edit(page);
  await page.locator(`${EDITOR} .tc-add-tag-name input`).fill(TAG);
  await page.locator(`${EDITOR} .tc-add-tag-button button`).first().click();
  await page.locator(`${EDITOR} .tc-tag-list-item[data-tag-title="${TAG}"]`).waitFor();
  await synced(page, "PUT", () => done(page));
  const shown = await page.locator(`${TIDDLER} .tc-tiddler-body`).first().innerText();
  if (!shown.includes(SECOND_TEXT)) throw new Error(`the tiddler shows ${JSON.stringify(shown)}`);
  // Delete: from its editor, confirming the browser's question.
  page.once("dialog", (dialog) => dialog.accept());
  await edit(page);
  await synced(page, "DELETE", async () => {
    await page.locator(`${EDITOR} ${core("delete")}`).click();
  });
  await page.locator(TIDDLER).waitFor({ state: "detached" });
}
