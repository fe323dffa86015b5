/**
 * The journey a user takes through Shaarli, driven in Chromium and
 * recorded as HAR (tests/support/record_har.ts): log in with the login
 * form, add three links (one with tags, one private, one note with no
 * URL), edit one, pin one, rename a tag in the tag management page, search
 * by tag, change the title in the tools' configure page, delete a link
 * (accepting the page's confirmation), log out. Every form carries the
 * single-use `token` its page handed out; the pin, delete and logout are
 * links (the first two carry a token in their query). Each click waits for
 * the page it loads; every wait is bounded.
 *
 * Run as a script it records both forms on a fresh instance and stores them
 * in tests/real/fixtures/shaarli/ (`deno run -A tests/real/shaarli_journey.ts`).
 *
 * @module
 */
import type { Page } from "playwright-core";
import { type Recordings, recordSession, writeRecordings } from "../support/record_har.ts";
import { start } from "./servers.ts";
import { LOGIN, shaarliLaunch, shaarliMissing } from "./shaarli.ts";
import { publicRecording } from "./unleash_journey.ts";

/** The links the journey adds, the tag it renames, the title it sets. */
export const MADE = {
  links: [
    { url: "https://example.org/tides", title: "Tide tables", tags: "harbour tides", priv: false },
    { url: "https://example.org/dues", title: "Harbour dues", tags: "harbour money", priv: true },
    { url: "", title: "Mooring note", tags: "notes", priv: false },
  ],
  edited: "Tide tables (spring)",
  tag: { from: "harbour", to: "port" },
  title: "Harbour links",
} as const;

/** Clicks `selector` (or runs `act`) and waits for the page it loads. */
async function load(page: Page, act: () => Promise<unknown>): Promise<void> {
  await Promise.all([page.waitForNavigation({ timeout: 15_000 }), act()]);
  await page.waitForLoadState("load");
}

/** Adds a link (or a note, with no URL) through the add form, then the edit form. */
async function addLink(page: Page, origin: string, link: (typeof MADE.links)[number]) {
  await page.goto(`${origin}/admin/add-shaare`);
  await page.fill("#shaare", link.url);
  await load(page, () => page.click("form[name=addform] input[type=submit]"));
  await page.fill("#lf_title", link.title);
  await page.fill("#lf_description", `${link.title}, as the office posted it.`);
  await page.fill("#lf_tags", link.tags);
  if (link.priv) await page.check("#lf_private");
  await load(page, () => page.click("#button-save-edit"));
}

/** The list item of the link titled `title` on the page shown. */
function item(page: Page, title: string) {
  return page.locator(".linklist-item", { hasText: title }).first();
}

/** Edits the first link's title, pins the note. */
async function editAndPin(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/`);
  await load(page, () => item(page, MADE.links[0].title).locator(".ctrl-edit a").click());
  await page.fill("#lf_title", MADE.edited);
  await load(page, () => page.click("#button-save-edit"));
  await page.goto(`${origin}/`);
  await load(page, () => item(page, MADE.links[2].title).locator(".ctrl-pin a").click());
}

/** Renames a tag in the tag management page, then searches by its new name. */
async function tags(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/admin/tags`);
  await page.fill("#changetag input[name=fromtag]", MADE.tag.from);
  await page.fill("#changetag input[name=totag]", MADE.tag.to);
  await load(page, () => page.click("#changetag input[name=renametag]"));
  await page.goto(`${origin}/`);
  const search = page.locator("#search-linklist form");
  await search.locator("input[name=searchtags]").fill(MADE.tag.to);
  await load(page, () => search.locator("button[type=submit]").click());
}

/** Changes the title in the configure page, reached from the tools. */
async function configure(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/admin/tools`);
  await load(page, () => page.click(`a[href$="/admin/configure"]`));
  await page.fill("#title", MADE.title);
  await load(page, () => page.click("#configform input[name=save]"));
}

/** Deletes the private link from the list, accepting the page's confirmation. */
async function deleteLink(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/`);
  page.once("dialog", (dialog) => dialog.accept());
  await load(page, () => item(page, MADE.links[1].title).locator(".ctrl-delete a").click());
}

/**
 * Records the journey on the instance at `origin`.
 *
 * @example
 * ```ts ignore
 * import { recordJourney } from "./shaarli_journey.ts";
 * const { playwright } = await recordJourney("http://127.0.0.1:8080");
 * ```
 */
export async function recordJourney(origin: string): Promise<Recordings> {
  return await recordSession(async (page) => {
    await page.goto(`${origin}/login`);
    await page.fill("#login-form input[name=login]", LOGIN.username);
    await page.fill("#login-form input[name=password]", LOGIN.password);
    await load(page, () => page.click("#login-form input[type=submit]"));
    for (const link of MADE.links) await addLink(page, origin, link);
    await editAndPin(page, origin);
    await tags(page, origin);
    await configure(page, origin);
    await deleteLink(page, origin);
    await load(page, () => page.click("#shaarli-menu-desktop-logout a"));
  }, 120_000);
}

if (import.meta.main) {
  const missing = shaarliMissing();
  if (missing) throw new Error(missing);
  const instance = await start(shaarliLaunch());
  try {
    const { playwright, chromeHar } = await recordJourney(instance.origin);
    await writeRecordings(
      Deno.args[0] ?? new URL("./fixtures/shaarli/", import.meta.url).pathname,
      "journey",
      { playwright: publicRecording(playwright), chromeHar: publicRecording(chromeHar) },
    );
  } finally {
    await instance.close();
  }
}
