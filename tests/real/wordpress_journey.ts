/**
 * The journey a user takes through WordPress, driven in Chromium and
 * recorded as HAR (tests/support/record_har.ts): log in with the login form,
 * write a new post in the block editor (a title, a paragraph), publish it,
 * open it on the site, edit it again (one more sentence) and update it,
 * trash it from the posts list (the row's link carries a nonce), log out
 * from the toolbar's menu (its link carries another). The editor's REST calls
 * carry the `X-WP-Nonce` its page handed out in inline JavaScript. Each
 * click waits for the page or the call it makes; every wait is bounded.
 *
 * Run as a script it records both forms on a fresh instance and stores them
 * in tests/real/fixtures/wordpress/ (`deno run -A tests/real/wordpress_journey.ts`).
 *
 * @module
 */
import type { Page, Response } from "playwright-core";
import { type Recordings, recordSession, writeRecordings } from "../support/record_har.ts";
import { start } from "./servers.ts";
import { LOGIN, wordpressLaunch, wordpressMissing } from "./wordpress.ts";
import { publicRecording } from "./unleash_journey.ts";

/** The post the journey writes: its title and its text before and after the edit. */
export const POST = {
  title: "Harbour tides",
  first: "High water at 06:12.",
  added: " Low water at 12:31.",
};

/** Waits for a 2xx answer to a REST call that saves a post while `act` runs. */
async function saved(page: Page, act: () => Promise<unknown>): Promise<Response> {
  const [response] = await Promise.all([
    page.waitForResponse(
      (r) =>
        r.request().method() === "POST" &&
        /\/wp\/v2\/posts\/\d+(?:[?&]|$)/.test(decodeURIComponent(r.url())),
      { timeout: 30_000 },
    ),
    act(),
  ]);
  if (response.status() >= 300) {
    throw new Error(`POST ${response.url()} answered ${response.status()}`);
  }
  return response;
}

/** Closes the block editor's welcome guide when it shows (a first visit). */
async function closeGuide(page: Page): Promise<void> {
  const guide = page.locator(".components-modal__screen-overlay");
  await guide.waitFor({ timeout: 5_000 }).then(async () => {
    await page.locator(".components-modal__frame button[aria-label^=Close]").click();
    await guide.waitFor({ state: "detached" });
  }, () => {});
}

/** Writes the post's title and paragraph in a new post and publishes it; its id. */
async function writeAndPublish(page: Page, origin: string): Promise<number> {
  await page.goto(`${origin}/wp-admin/post-new.php`);
  await page.waitForLoadState("networkidle");
  await closeGuide(page);
  await page.locator(".editor-post-title__input").click();
  await page.keyboard.type(POST.title);
  await page.keyboard.press("Enter");
  await page.keyboard.type(POST.first);
  await page.locator(".editor-post-publish-panel__toggle").click();
  const answer = await saved(
    page,
    () => page.locator(".editor-post-publish-panel .editor-post-publish-button").click(),
  );
  const { id } = await answer.json();
  await page.locator(".post-publish-panel__postpublish").waitFor();
  return id;
}

/** Opens the published post on the site, as the publish panel's "View Post" link does. */
async function view(page: Page): Promise<void> {
  const link = page.locator(".post-publish-panel__postpublish-buttons a").first();
  const href = await link.getAttribute("href");
  if (!href) throw new Error("the publish panel links no post");
  await page.goto(href);
  await page.waitForLoadState("load");
}

/** Opens the post's editor again, adds a sentence to its paragraph and updates it. */
async function edit(page: Page, origin: string, id: number): Promise<void> {
  await page.goto(`${origin}/wp-admin/post.php?post=${id}&action=edit`);
  await page.waitForLoadState("networkidle");
  await closeGuide(page);
  await page.locator("p.wp-block-paragraph", { hasText: POST.first }).click();
  await page.keyboard.press("End");
  await page.keyboard.type(POST.added);
  await saved(page, () => page.locator(".editor-post-publish-button").click());
  await page.waitForLoadState("networkidle");
}

/** Trashes the post with its row's link in the posts list. */
async function trash(page: Page, origin: string, id: number): Promise<void> {
  await page.goto(`${origin}/wp-admin/edit.php`);
  await page.locator(`#post-${id}`).hover();
  await Promise.all([
    page.waitForURL((u) => u.searchParams.has("trashed")),
    page.locator(`#post-${id} a.submitdelete`).click(),
  ]);
  await page.waitForLoadState("load");
}

/**
 * Records the journey on the instance at `origin`.
 *
 * @example
 * ```ts ignore
 * import { recordJourney } from "./wordpress_journey.ts";
 * const { playwright } = await recordJourney("http://127.0.0.1:8080");
 * ```
 */
export async function recordJourney(origin: string): Promise<Recordings> {
  return await recordSession(async (page) => {
    await page.goto(`${origin}/wp-login.php`);
    await page.fill("#user_login", LOGIN.username);
    await page.fill("#user_pass", LOGIN.password);
    await Promise.all([
      page.waitForURL((u) => u.pathname.startsWith("/wp-admin")),
      page.click("#wp-submit"),
    ]);
    await page.waitForLoadState("load");
    const id = await writeAndPublish(page, origin);
    await view(page);
    await edit(page, origin, id);
    await trash(page, origin, id);
    await page.locator("#wp-admin-bar-my-account").hover();
    await Promise.all([
      page.waitForURL((u) => u.searchParams.get("loggedout") === "true"),
      page.locator("#wp-admin-bar-logout a").click(),
    ]);
    await page.waitForLoadState("load");
  }, 180_000);
}

if (import.meta.main) {
  const missing = wordpressMissing();
  if (missing) throw new Error(missing);
  const instance = await start(wordpressLaunch());
  try {
    const { playwright, chromeHar } = await recordJourney(instance.origin);
    await writeRecordings(
      new URL("./fixtures/wordpress/", import.meta.url).pathname,
      "journey",
      { playwright: publicRecording(playwright), chromeHar: publicRecording(chromeHar) },
    );
  } finally {
    await instance.close();
  }
}
