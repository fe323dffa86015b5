/**
 * The journey a user takes through Tiny Tiny RSS, driven in Chromium and
 * recorded as HAR (tests/support/record_har.ts): log in with the login
 * form, subscribe to two feeds in the "Subscribe to feed" dialog, let the
 * page's own updater fetch them (the call its 30 s timer makes in simple
 * update mode), open the first feed, toggle its first article's unread
 * mark, star it, make a label and put the article in it, mark the whole
 * feed read; then in the preferences make a category, change a
 * preference; log out with the menu's action. Every action goes through
 * the page's own code (what its menus and dialogs call), and each waits for
 * the `backend.php` call it makes; every wait is bounded.
 *
 * Run as a script it records both forms on a fresh instance and stores them
 * in tests/real/fixtures/ttrss/ (`deno run -A tests/real/ttrss_journey.ts`).
 *
 * @module
 */
import type { Page, Response } from "playwright-core";
import { type Recordings, recordSession, writeRecordings } from "../support/record_har.ts";
import { start } from "./servers.ts";
import { LOGIN, ttrssLaunch, ttrssMissing } from "./ttrss.ts";
import { feedUrl } from "./ttrss_feeds.ts";
import { publicRecording } from "./unleash_journey.ts";

/** What the journey makes: its label and category. */
export const MADE = { label: "Harbour watch", category: "Sea" } as const;

/** Waits for the `backend.php` call whose form carries `method=METHOD` while `act` runs. */
async function backend(page: Page, method: string, act: () => Promise<unknown>): Promise<Response> {
  const [response] = await Promise.all([
    page.waitForResponse((r) =>
      r.url().includes("/backend.php") &&
      new RegExp(`(^|&)method=${method}(&|$)`).test(r.request().postData() ?? r.url())
    ),
    act(),
  ]).catch((error) => {
    throw new Error(`waiting for backend.php method=${method}: ${error}`);
  });
  return response;
}

/** Subscribes to `url` in the page's "Subscribe to feed" dialog. */
async function subscribe(page: Page, url: string): Promise<void> {
  await backend(page, "quickAddFeed", () => page.evaluate("CommonDialogs.quickAddFeed()"));
  await page.locator("#feedAddDlg input[name=feed]").fill(url);
  await backend(page, "addfeed", () => page.evaluate(`dijit.byId("feedAddDlg").execute()`));
  await page.locator("#feedAddDlg").waitFor({ state: "hidden" });
}

/** Logs in with the login form and waits for the reader's first feed tree. */
async function logIn(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/index.php`);
  await page.locator("#login").fill(LOGIN.username);
  await page.locator("input[name=password]").fill(LOGIN.password);
  await Promise.all([
    page.waitForResponse((r) => r.url().includes("method=getfeedtree")),
    page.press("input[name=password]", "Enter"),
  ]);
}

/** The id of the first headline shown. */
async function firstHeadline(page: Page): Promise<number> {
  const row = page.locator(".hl[data-article-id], [id^=RROW-] [data-article-id]").first();
  await row.waitFor();
  return Number(await row.getAttribute("data-article-id"));
}

/** Makes the label {@linkcode MADE} and puts the article `id` in it, as the article's menu does. */
async function labelArticle(page: Page, id: number): Promise<void> {
  page.once("dialog", (d) => d.accept(MADE.label));
  await backend(page, "add", () => page.evaluate("CommonDialogs.addLabel()"));
  const caption = JSON.stringify(MADE.label);
  const feed = await page.waitForFunction(
    `dijit.byId("feedTree").model.store._arrayOfAllItems.find((i) => String(i.name) === ${caption})?.bare_id[0]`,
    undefined,
    { timeout: 10_000 },
  );
  // The tree lists a label as a virtual feed, -1025 - its id; the article's menu sends the id.
  const label = -1025 - Number(await feed.jsonValue());
  await backend(
    page,
    "assignToLabel",
    () => page.evaluate(`Headlines.selectionAssignLabel(${label}, [${id}])`),
  );
}

/** In the reader: read, star, label, mark read. */
async function read(page: Page): Promise<void> {
  await backend(page, "updaterandomfeed", () => page.evaluate("Feeds.updateRandom()"));
  const feed = await page.evaluate(
    `dijit.byId("feedTree").model.store._arrayOfAllItems.find((i) => i.bare_id == undefined ? false : String(i.name) === "Harbour notes")?.bare_id[0]`,
  );
  await backend(page, "view", () => page.evaluate(`Feeds.open({feed: ${feed}})`));
  // The feed tree reloads once the counters say new feeds came, and shows the feed again.
  await page.waitForTimeout(2000);
  const id = await firstHeadline(page);
  await backend(page, "catchupSelected", () => page.evaluate(`Headlines.toggleUnread(${id})`));
  await backend(page, "markSelected", () => page.click(`.marked-pic.marked-${id}`));
  await labelArticle(page, id);
  page.once("dialog", (d) => d.accept());
  await backend(page, "catchupFeed", () => page.evaluate(`Feeds.catchupFeed(${feed})`));
}

/** In the preferences: no confirmation before marking a feed read; a new category. */
async function preferences(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/prefs.php`);
  const form = page.locator("#changeSettingsForm");
  await form.waitFor();
  await form.locator("input[name=CONFIRM_FEED_CATCHUP]").click();
  // A changed preference reloads the page (what tt-rss does once it saved them).
  await Promise.all([
    page.waitForEvent("load"),
    backend(page, "saveconfig", () => form.getByText("Save configuration").click()),
  ]);
  await page.locator("#changeSettingsForm").waitFor();
  await page.evaluate(`dijit.byId("pref-tabs").selectChild(dijit.byId("feedConfigTab"))`);
  await page.waitForFunction(`dijit.byId("feedTree")`, undefined, { timeout: 10_000 });
  page.once("dialog", (d) => d.accept(MADE.category));
  await backend(page, "addCat", () => page.evaluate(`dijit.byId("feedTree").createCategory()`));
}

/**
 * Records the journey on the instance at `origin`.
 *
 * @example
 * ```ts ignore
 * import { recordJourney } from "./ttrss_journey.ts";
 * const { playwright } = await recordJourney("http://127.0.0.1:8080");
 * ```
 */
export async function recordJourney(origin: string): Promise<Recordings> {
  return await recordSession(async (page) => {
    await logIn(page, origin);
    await subscribe(page, feedUrl("harbour.xml"));
    await subscribe(page, feedUrl("tides.xml"));
    await read(page);
    await preferences(page, origin);
    await Promise.all([
      page.waitForResponse((r) => r.url().includes("/public.php")),
      page.evaluate(`App.onActionSelected("qmcLogout")`),
    ]);
    await page.waitForLoadState("load");
  }, 120_000);
}

if (import.meta.main) {
  const missing = ttrssMissing();
  if (missing) throw new Error(missing);
  const instance = await start(ttrssLaunch());
  try {
    const { playwright, chromeHar } = await recordJourney(instance.origin);
    await writeRecordings(
      Deno.args[0] ?? new URL("./fixtures/ttrss/", import.meta.url).pathname,
      "journey",
      { playwright: publicRecording(playwright), chromeHar: publicRecording(chromeHar) },
    );
  } finally {
    await instance.close();
  }
}
