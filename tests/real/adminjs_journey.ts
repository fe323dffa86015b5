/**
 * The journey a user takes through an AdminJS panel (tests/real/adminjs.ts), driven in
 * Chromium through its React UI and recorded as HAR (tests/support/record_har.ts): log in
 * through the form, create two authors, create a post by the first one (chosen in the author
 * picker by typing part of the name), edit the post's title and flag, list the posts filtered
 * by title, open the second author and delete it (the confirmation dialog), log out. The
 * React UI sends each record form as multipart data to
 * `/admin/api/resources/{resource}/actions/new` and `…/records/{id}/edit`, and the delete to
 * `…/records/{id}/delete`. Every wait is bounded.
 *
 * Run as a script it records both forms on a fresh panel and stores them in
 * tests/real/fixtures/adminjs/ (`deno run -A tests/real/adminjs_journey.ts`).
 *
 * @module
 */
import type { Page } from "playwright-core";
import {
  answered,
  type Recordings,
  recordSession,
  writeRecordings,
} from "../support/record_har.ts";
import { ADMIN, ADMINJS, withPanel } from "./adminjs.ts";
import { prepare } from "./servers.ts";
import { publicRecording } from "./unleash_journey.ts";

/** What the user types: the two authors, the post's title and its revised title. */
export const NAMES = {
  authors: [["Ada Tidewell", "ada@example.com"], ["Grace Keel", "grace@example.com"]],
  title: "Tide tables",
  revised: "Tide tables, revised",
};

const API = "/admin/api/resources";

/** Opens `resource`'s new-record form, fills it, saves; gives the id the create answered. */
async function create(
  page: Page,
  origin: string,
  resource: string,
  fill: () => Promise<void>,
): Promise<number> {
  await page.goto(`${origin}/admin/resources/${resource}/actions/new`);
  await page.waitForSelector("[data-testid=button-save]", { timeout: 30_000 });
  await fill();
  const saved = await answered(
    page,
    "POST",
    new RegExp(`^${API}/${resource}/actions/new$`),
    () => page.click("[data-testid=button-save]"),
  );
  const { record } = await saved.json();
  await page.waitForLoadState("load");
  return record.id;
}

/** Creates the post by the first author, picked by typing part of the name. */
function createPost(page: Page, origin: string): Promise<number> {
  return create(page, origin, "Posts", async () => {
    await page.fill("#title", NAMES.title);
    await page.fill("#content", "High water at noon.");
    const picker = page.locator("[data-testid=property-edit-authorId] input").first();
    await picker.click();
    await picker.pressSequentially(NAMES.authors[0][0].slice(0, 3), { delay: 50 });
    await page.waitForSelector(`text=${NAMES.authors[0][0]}`, { timeout: 15_000 });
    await page.keyboard.press("Enter");
  });
}

/** Edits the post's title and flag. */
async function editPost(page: Page, origin: string, post: number): Promise<void> {
  await page.goto(`${origin}/admin/resources/Posts/records/${post}/edit`);
  await page.waitForSelector("#title", { timeout: 30_000 });
  await page.fill("#title", NAMES.revised);
  await page.click("label[for=published]");
  await answered(
    page,
    "POST",
    new RegExp(`^${API}/Posts/records/${post}/edit$`),
    () => page.click("[data-testid=button-save]"),
  );
  await page.waitForLoadState("load");
}

/** Opens the author's page, its delete action, and confirms. */
async function deleteAuthor(page: Page, origin: string, author: number): Promise<void> {
  await page.goto(`${origin}/admin/resources/Authors/records/${author}/show`);
  await page.click("[data-testid=action-delete]", { timeout: 30_000 });
  const confirm = page.getByRole("button", { name: /confirm|delete|yes/i }).last();
  await confirm.waitFor({ timeout: 15_000 });
  await answered(
    page,
    "POST",
    new RegExp(`^${API}/Authors/records/${author}/delete$`),
    () => confirm.click(),
  );
  await page.waitForLoadState("load");
}

/**
 * Records the journey on the panel at `origin`.
 *
 * @example
 * ```ts ignore
 * import { recordJourney } from "./adminjs_journey.ts";
 * const { playwright } = await recordJourney("http://127.0.0.1:3000");
 * ```
 */
export async function recordJourney(origin: string): Promise<Recordings> {
  return await recordSession(async (page) => {
    await page.goto(`${origin}/admin/login`);
    await page.fill("input[name=email]", ADMIN.email);
    await page.fill("input[name=password]", ADMIN.password);
    await Promise.all([
      page.waitForURL((u) => !u.pathname.endsWith("/login"), { timeout: 30_000 }),
      page.click("form button"),
    ]);
    const authors: number[] = [];
    for (const [name, email] of NAMES.authors) {
      authors.push(
        await create(page, origin, "Authors", async () => {
          await page.fill("#name", name);
          await page.fill("#email", email);
        }),
      );
    }
    const post = await createPost(page, origin);
    await editPost(page, origin, post);
    await page.goto(`${origin}/admin/resources/Posts?filters.title=Tide&page=1`);
    await page.waitForLoadState("networkidle", { timeout: 30_000 });
    await deleteAuthor(page, origin, authors[1]);
    await page.goto(`${origin}/admin/logout`);
    await page.waitForLoadState("load");
  }, 180_000);
}

if (import.meta.main) {
  const prepared = await prepare(ADMINJS);
  if (prepared.ignoredBecause) throw new Error(prepared.ignoredBecause);
  const recorded = await withPanel(prepared.install!.prefix, (p) => recordJourney(p.origin));
  await writeRecordings(new URL("./fixtures/adminjs/", import.meta.url).pathname, "journey", {
    playwright: publicRecording(recorded.playwright),
    chromeHar: publicRecording(recorded.chromeHar),
  });
}
