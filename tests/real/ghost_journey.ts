/**
 * The journey a user takes through Ghost's admin (an Ember single-page app
 * at `/ghost/`), driven in Chromium and recorded as HAR
 * (tests/support/record_har.ts): sign in as the owner made at set-up,
 * create a post (its title, then a line of text: the editor saves a draft,
 * then saves it again with the `updated_at` the server last returned),
 * publish it, make a tag and give it to the post, open the posts list
 * filtered to the published ones, delete the post, sign out. Every wait is
 * bounded.
 *
 * Run as a script it records both forms on a fresh instance and stores them
 * in tests/real/fixtures/ghost/ (`deno run -A tests/real/ghost_journey.ts`).
 *
 * @module
 */
import type { Page } from "playwright-core";
import { type Recordings, recordSession, writeRecordings } from "../support/record_har.ts";
import { ghostPrefix, OWNER, prepareGhost, withGhost } from "./ghost.ts";
import { publicRecording } from "./unleash_journey.ts";

/** The post's title and the tag's name the user types. */
export const POST_TITLE = "Spring release notes";
export const TAG_NAME = "Release notes";

/** Waits for the answer to `method` on a URL `url` matches while `act` runs; throws unless it is 2xx. */
async function answered(page: Page, url: RegExp, method: string, act: () => Promise<unknown>) {
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === method && url.test(r.url()), {
      timeout: 30_000,
    }),
    act(),
  ]);
  if (response.status() >= 300) {
    throw new Error(`${method} ${response.url()} answered ${response.status()}`);
  }
  return response;
}

/** Signs in as {@linkcode OWNER} on the sign-in screen. */
async function signIn(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/ghost/#/signin`);
  await page.fill("input[name=identification]", OWNER.email);
  await page.fill("input[name=password]", OWNER.password);
  await answered(
    page,
    /\/api\/admin\/session\/?$/,
    "POST",
    () => page.click("button[type=submit]"),
  );
  await page.waitForURL((u) => !u.hash.includes("signin"));
  await page.waitForLoadState("networkidle");
}

/** Writes a new post: its title (the draft is created), then a line of text (saved again). */
async function writePost(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/ghost/#/editor/post`);
  const title = page.locator("textarea.gh-editor-title, [data-test-editor-title-input]").first();
  await title.fill(POST_TITLE);
  await answered(page, /\/api\/admin\/posts\/\?/, "POST", () => title.press("Enter"));
  await page.waitForURL(/#\/editor\/post\/[0-9a-f]{24}/);
  await page.keyboard.type("What changed this spring, in one line.");
  await answered(page, /\/api\/admin\/posts\/[0-9a-f]{24}\/\?/, "PUT", () => Promise.resolve());
}

/** Publishes the open post now, through the publish flow's two screens. */
async function publish(page: Page): Promise<void> {
  await page.getByRole("button", { name: /^Publish$/ }).first().click();
  await page.getByRole("button", { name: /Continue, final review/ }).click();
  await answered(
    page,
    /\/api\/admin\/posts\/[0-9a-f]{24}\/\?/,
    "PUT",
    () => page.getByRole("button", { name: /Publish post, right now/ }).click(),
  );
  await page.waitForLoadState("networkidle");
}

/** Opens the post from the list, gives it a new tag in its settings, and saves it with the tag. */
async function tag(page: Page): Promise<void> {
  await page.locator("[data-test-button=close-publish-flow]").click();
  await page.locator(".gh-post-list-title", { hasText: POST_TITLE }).first().click();
  await page.locator("[data-test-psm-trigger], button.settings-menu-toggle").first().click();
  const input = page.locator("#tag-input input, input#tag-input").first();
  await input.pressSequentially(TAG_NAME, { delay: 20 });
  const option = page.locator(".ember-power-select-option", { hasText: TAG_NAME }).first();
  await option.click();
  await page.locator("[data-test-psm-trigger]").click();
  // The post is published: its changes go out with Update (the new tag in the post's body).
  await answered(
    page,
    /\/api\/admin\/posts\/[0-9a-f]{24}\/\?/,
    "PUT",
    () => page.getByRole("button", { name: "Update" }).first().click(),
  );
}

/** The posts list, filtered to the published ones, as its menu gives it. */
async function listPublished(page: Page, origin: string): Promise<void> {
  await answered(
    page,
    /\/api\/admin\/posts\/\?.*filter=/,
    "GET",
    () => page.goto(`${origin}/ghost/#/posts?type=published`),
  );
  await page.waitForLoadState("networkidle");
}

/** Opens the post from the list and deletes it from its settings. */
async function deletePost(page: Page): Promise<void> {
  await page.locator(".gh-post-list-title", { hasText: POST_TITLE }).first().click();
  await page.locator("[data-test-psm-trigger], button.settings-menu-toggle").first().click();
  await page.locator("[data-test-button=delete-post]").click();
  await answered(
    page,
    /\/api\/admin\/posts\/[0-9a-f]{24}\/(?:\?|$)/,
    "DELETE",
    () => page.locator("[data-test-button=delete-post-confirm]").click(),
  );
  await page.waitForLoadState("networkidle");
}

/** Signs out with the user menu. */
async function signOut(page: Page, origin: string): Promise<void> {
  await answered(
    page,
    /\/api\/admin\/session\/?$/,
    "DELETE",
    () => page.goto(`${origin}/ghost/#/signout`),
  );
  await page.waitForURL((u) => u.hash.includes("signin"));
}

/**
 * Records the journey on the instance at `origin` (both HAR forms).
 *
 * @example
 * ```ts ignore
 * import { recordJourney } from "./ghost_journey.ts";
 * const { playwright } = await recordJourney("http://127.0.0.1:2368");
 * ```
 */
export function recordJourney(origin: string): Promise<Recordings> {
  return recordSession(async (page) => {
    page.setDefaultTimeout(30_000);
    await signIn(page, origin);
    await writePost(page, origin);
    await publish(page);
    await tag(page);
    await listPublished(page, origin);
    await deletePost(page);
    await signOut(page, origin);
  }, 240_000);
}

if (import.meta.main) {
  const prepared = await prepareGhost();
  if (prepared.ignoredBecause) throw new Error(prepared.ignoredBecause);
  const recorded = await withGhost(ghostPrefix, async (g) => {
    const { playwright, chromeHar } = await recordJourney(g.origin);
    return { playwright: publicRecording(playwright), chromeHar: publicRecording(chromeHar) };
  });
  await writeRecordings(
    new URL("./fixtures/ghost/", import.meta.url).pathname,
    "journey",
    recorded,
  );
}
