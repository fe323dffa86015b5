/**
 * The journey a TiddlyWiki user takes through the wiki in Chromium, through
 * the product's own UI: open the wiki (its client loads the tiddler list from
 * `GET /recipes/default/tiddlers.json`), create a tiddler with a title and
 * text and save it, edit its text, tag it, rename it (a `PUT` of the new
 * title and a `DELETE` of the old), then delete it. The client syncs each
 * change on a timer; every step waits for the server's answer to that sync
 * (a `PUT` or `DELETE` of the tiddler), never for a time.
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
/** The title it is renamed to. */
export const RENAMED_TITLE = "Orders shipped";

/** The view of the tiddler titled `title`. */
const viewOf = (title: string) => `[data-tiddler-title="${title}"]`;
const EDITOR = ".tc-tiddler-edit-frame";

/** One of the core's toolbar buttons, by the class TiddlyWiki derives from its title. */
const core = (name: string) => `button[class~="tc-btn-%24%3A%2Fcore%2Fui%2FButtons%2F${name}"]`;

/** A sync the client makes: `PUT` (save) or `DELETE` of the tiddler titled `title`. */
type Sync = [method: "PUT" | "DELETE", title: string];

/** Whether `r` answers `sync`. */
function answers(r: Response, [method, title]: Sync): boolean {
  const path = method === "DELETE" ? "/bags/default/tiddlers/" : "/recipes/default/tiddlers/";
  return r.request().method() === method &&
    decodeURIComponent(new URL(r.url()).pathname) === path + title;
}

/** Runs `act`, then waits for the server's answer to each sync it causes; each must be a success. */
async function synced(page: Page, syncs: Sync[], act: () => Promise<void>): Promise<void> {
  // The client syncs within a second or so of a change; a busy machine gets 30 s.
  const answered = syncs.map((sync) =>
    page.waitForResponse((r) => answers(r, sync), { timeout: 30_000 })
  );
  // When `act` throws, its error is the one to report, not the waits'.
  for (const wait of answered) wait.catch(() => {});
  await act();
  for (const response of await Promise.all(answered)) {
    if (!response.ok()) throw new Error(`${response.url()} answered ${response.status()}`);
  }
}

/** Opens the editor of the tiddler titled `title` from its view, by its edit button. */
async function edit(page: Page, title: string): Promise<void> {
  await page.locator(`${viewOf(title)} ${core("edit")}`).click();
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
  await synced(page, [["PUT", TIDDLER_TITLE]], () => done(page));
  // Edit: change its text.
  await edit(page, TIDDLER_TITLE);
  await typeBody(page, SECOND_TEXT);
  await synced(page, [["PUT", TIDDLER_TITLE]], () => done(page));
  // Tag it.
  await edit(page, TIDDLER_TITLE);
  await page.locator(`${EDITOR} .tc-add-tag-name input`).fill(TAG);
  await page.locator(`${EDITOR} .tc-add-tag-button button`).first().click();
  await page.locator(`${EDITOR} .tc-tag-list-item[data-tag-title="${TAG}"]`).waitFor();
  await synced(page, [["PUT", TIDDLER_TITLE]], () => done(page));
  // Rename it: the client saves the new title and deletes the old.
  await edit(page, TIDDLER_TITLE);
  await title.fill(RENAMED_TITLE);
  await synced(page, [["PUT", RENAMED_TITLE], ["DELETE", TIDDLER_TITLE]], () => done(page));
  const shown = await page.locator(`${viewOf(RENAMED_TITLE)} .tc-tiddler-body`).first()
    .innerText();
  if (!shown.includes(SECOND_TEXT)) throw new Error(`the tiddler shows ${JSON.stringify(shown)}`);
  // Delete: from its editor, confirming the browser's question.
  page.once("dialog", (dialog) => dialog.accept());
  await edit(page, RENAMED_TITLE);
  await synced(page, [["DELETE", RENAMED_TITLE]], async () => {
    await page.locator(`${EDITOR} ${core("delete")}`).click();
  });
  await page.locator(viewOf(RENAMED_TITLE)).waitFor({ state: "detached" });
}
