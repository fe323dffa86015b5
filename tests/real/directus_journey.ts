/**
 * The journey a user takes through Directus 10's admin app (a Vue
 * single-page app at `/admin`), driven in Chromium and recorded as HAR
 * (tests/support/record_har.ts): sign in, create a collection with two
 * fields in the data model, add two items, edit one, open the list and
 * search it, delete one, sign out. Every wait is bounded.
 *
 * Run as a script it records both forms on a fresh instance and stores them
 * in tests/real/fixtures/directus/har/ (`deno run -A
 * tests/real/directus_journey.ts [STEM]`, STEM `journey` by default).
 *
 * @module
 */
import type { Locator, Page, Response } from "playwright-core";
import {
  answered,
  type Recordings,
  recordSession,
  writeRecordings,
} from "../support/record_har.ts";
import { DIRECTUS, type DirectusOptions, withDirectus } from "./directus.ts";
import { prepare } from "./servers.ts";
import { publicRecording } from "./unleash_journey.ts";

/** The collection the user creates, and its two text fields. */
export const COLLECTION = "articles";

/** The titles of the two items the user adds, and the title the first is edited to. */
export const TITLES = ["First steps", "Second thoughts", "First steps, revised"] as const;

/**
 * The admin's email the stored recordings typed: each instance the tests
 * start for them is bootstrapped with it, whatever directus.ts's default
 * admin is, since the flow signs in as the recording did.
 */
export const RECORDED_EMAIL = "owner@example.org";

/**
 * How to start an instance for the recordings: the install's `prefix`, the
 * admin {@linkcode RECORDED_EMAIL}.
 *
 * @example
 * ```ts
 * import { journeyInstance } from "./directus_journey.ts";
 * if (journeyInstance("/cache").env?.ADMIN_EMAIL !== "owner@example.org") throw new Error();
 * ```
 */
export function journeyInstance(prefix: string): DirectusOptions {
  return { prefix, env: { ADMIN_EMAIL: RECORDED_EMAIL } };
}

/** A sign-in the journey uses. */
export interface Credentials {
  email: string;
  password: string;
}

/** The header button showing `icon` (Directus draws its buttons as Material icons). */
function iconButton(page: Page, icon: string): Locator {
  return page.locator(`button:has([data-icon=${icon}])`);
}

/** Creates the collection in the data model: its name, then "finish" with no optional fields. */
async function createCollection(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/admin/settings/data-model/+`);
  await page.fill("input[placeholder='A unique table name...']", COLLECTION);
  await iconButton(page, "arrow_forward").click();
  await answered(page, "POST", /^\/collections$/, () => iconButton(page, "check").last().click());
  await page.waitForURL(new RegExp(`/data-model/${COLLECTION}$`));
}

/** Adds a text field of the given interface ("Input", "Textarea") to the collection. */
async function createField(page: Page, field: string, kind: string): Promise<void> {
  await page.getByText("Create Field", { exact: true }).click();
  await page.locator("#dialog-outlet").getByText(kind, { exact: true }).click();
  await page.fill("input[placeholder='A unique column name...']", field);
  await answered(
    page,
    "POST",
    new RegExp(`^/fields/${COLLECTION}$`),
    () => page.getByRole("button", { name: "Save", exact: true }).click(),
  );
  await page.waitForURL(new RegExp(`/data-model/${COLLECTION}$`));
}

/** Adds an item with `title` and a one-line summary from the list's "create" page. */
async function createItem(page: Page, origin: string, title: string): Promise<void> {
  await page.goto(`${origin}/admin/content/${COLLECTION}/+`);
  await page.locator("input[field=title]").fill(title);
  await page.locator("textarea").first().fill(`About ${title.toLowerCase()}.`);
  await answered(
    page,
    "POST",
    new RegExp(`^/items/${COLLECTION}$`),
    () => iconButton(page, "check").first().click(),
  );
  await page.waitForURL(new RegExp(`/content/${COLLECTION}$`));
}

/** Opens the item titled `title` from the list and renames it to `to`. */
async function editItem(page: Page, title: string, to: string): Promise<void> {
  await page.locator(".table-row", { hasText: title }).first().click();
  await page.waitForURL(new RegExp(`/content/${COLLECTION}/\\d+$`));
  await page.locator("input[field=title]").fill(to);
  await answered(
    page,
    "PATCH",
    new RegExp(`^/items/${COLLECTION}/\\d+$`),
    () => iconButton(page, "check").first().click(),
  );
  await page.waitForURL(new RegExp(`/content/${COLLECTION}$`));
}

/** Searches the list for `word` (the list asks for the items and their count), then clears it. */
async function search(page: Page, word: string): Promise<void> {
  const searched = (r: Response) =>
    r.request().method() === "GET" && new URL(r.url()).searchParams.has("search");
  await page.locator(".icon-search").first().click();
  const box = page.locator("input[type=search]").first();
  await Promise.all([page.waitForResponse(searched), box.fill(word)]);
  await page.waitForLoadState("networkidle");
  await answered(page, "GET", new RegExp(`^/items/${COLLECTION}$`), () => box.fill(""));
}

/** Selects the item titled `title` in the list and deletes it, confirming. */
async function deleteItem(page: Page, title: string): Promise<void> {
  await page.locator(".table-row", { hasText: title }).first().locator(".v-checkbox, .select")
    .first().click();
  await iconButton(page, "delete").first().click();
  await answered(
    page,
    "DELETE",
    new RegExp(`^/items/${COLLECTION}`),
    () => page.locator("#dialog-outlet").getByRole("button", { name: "Delete" }).click(),
  );
}

/**
 * Drives the journey on `page` at the instance at `origin`, as `admin`.
 *
 * @example
 * ```ts ignore
 * import { driveJourney } from "./directus_journey.ts";
 * import { recordSession } from "../support/record_har.ts";
 * await recordSession((page) =>
 *   driveJourney(page, "http://127.0.0.1:8055", { email: "a@b.test", password: "x" })
 * );
 * ```
 */
export async function driveJourney(page: Page, origin: string, admin: Credentials): Promise<void> {
  // A busy machine takes its time: every action waits up to 30 s for what it needs.
  page.setDefaultTimeout(30_000);
  const settled = () => page.waitForLoadState("networkidle");
  await page.goto(`${origin}/admin/login`);
  await page.fill("input[type=email]", admin.email);
  await page.fill("input[type=password]", admin.password);
  await answered(page, "POST", /^\/auth\/login$/, () => page.click("button[type=submit]"));
  await page.waitForURL((u) => !u.pathname.endsWith("/login"));
  await settled();
  await createCollection(page, origin);
  await createField(page, "title", "Input");
  await createField(page, "summary", "Textarea");
  await createItem(page, origin, TITLES[0]);
  await createItem(page, origin, TITLES[1]);
  await settled();
  await editItem(page, TITLES[0], TITLES[2]);
  await settled();
  await search(page, "second");
  await deleteItem(page, TITLES[1]);
  await settled();
  await answered(page, "POST", /^\/auth\/logout$/, () => page.goto(`${origin}/admin/logout`));
  await page.waitForURL(/\/login/);
}

/**
 * Records the journey on the instance at `origin` (both HAR forms) as
 * the admin `admin`.
 *
 * @example
 * ```ts ignore
 * import { recordJourney } from "./directus_journey.ts";
 * const { playwright } = await recordJourney("http://127.0.0.1:8055", {
 *   email: "admin@example.com",
 *   password: "secret",
 * });
 * ```
 */
export function recordJourney(origin: string, admin: Credentials): Promise<Recordings> {
  return recordSession((page) => driveJourney(page, origin, admin), 240_000);
}

if (import.meta.main) {
  const prepared = await prepare([DIRECTUS]);
  if (prepared.ignoredBecause) throw new Error(prepared.ignoredBecause);
  const recorded = await withDirectus(journeyInstance(prepared.install!.prefix), async (d) => {
    const admin = { email: RECORDED_EMAIL, password: d.adminPassword };
    const { playwright, chromeHar } = await recordJourney(d.baseUrl, admin);
    return { playwright: publicRecording(playwright), chromeHar: publicRecording(chromeHar) };
  });
  await writeRecordings(
    new URL("./fixtures/directus/har/", import.meta.url).pathname,
    Deno.args[0] ?? "journey",
    recorded,
  );
}
