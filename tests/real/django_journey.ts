/**
 * The journey a user takes through Django's admin, driven in Chromium and
 * recorded as HAR (tests/support/record_har.ts): log in, add a group with two
 * permissions (chosen in the admin's two-box selector), add a user (the
 * two-step form: user name and password twice, then the change page the save
 * redirects to), edit the user (first name, the group), the user list
 * filtered by a search, delete the user (the confirmation page posting
 * `post=yes`), delete the group (opened from the groups' list by its link),
 * log out: what the journey made it removes, so it can be run again. Each click waits for the page it loads; every wait
 * is bounded.
 *
 * Run as a script it records both forms on a fresh instance and stores them
 * in tests/real/fixtures/django/ (`deno run -A tests/real/django_journey.ts`).
 *
 * @module
 */
import type { Page } from "playwright-core";
import { type Recordings, recordSession, writeRecordings } from "../support/record_har.ts";
import { start } from "./servers.ts";
import { djangoLaunch, djangoMissing, LOGIN } from "./django.ts";
import { publicRecording } from "./unleash_journey.ts";

/** What the user types: the group, its two permissions, the user and their first name. */
export const NAMES = {
  group: "Harbour masters",
  permissions: ["auth | user | Can view user", "auth | group | Can view group"],
  user: "tidewatcher",
  userPassword: "low-water-0631-gauge",
  firstName: "Marina",
};

/** Clicks `selector` and waits for the page it loads to match `url`. */
async function submit(page: Page, selector: string, url: (u: URL) => boolean): Promise<void> {
  await Promise.all([page.waitForURL(url), page.click(selector)]);
  await page.waitForLoadState("load");
}

/** Picks the options labelled `labels` in the two-box selector of the field `field`. */
async function choose(page: Page, field: string, labels: string[]): Promise<void> {
  await page.selectOption(`#id_${field}_from`, labels.map((label) => ({ label })));
  await page.click(`#id_${field}_add_link`);
}

/** Adds the group with its two permissions; waits for the list the save returns to. */
async function addGroup(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/admin/auth/group/add/`);
  await page.fill("#id_name", NAMES.group);
  await choose(page, "permissions", NAMES.permissions);
  await submit(page, "input[name=_save]", (u) => u.pathname === "/admin/auth/group/");
}

/** Adds the user, then on the change page the save leads to, its first name and group. */
async function addUser(page: Page, origin: string): Promise<string> {
  await page.goto(`${origin}/admin/auth/user/add/`);
  await page.fill("#id_username", NAMES.user);
  await page.fill("#id_password1", NAMES.userPassword);
  await page.fill("#id_password2", NAMES.userPassword);
  await submit(page, "input[name=_save]", (u) => /\/user\/\d+\/change\/$/.test(u.pathname));
  const changePath = new URL(page.url()).pathname;
  await page.fill("#id_first_name", NAMES.firstName);
  await choose(page, "groups", [NAMES.group]);
  await submit(page, "input[name=_save]", (u) => u.pathname === "/admin/auth/user/");
  return changePath;
}

/** Opens the group from the groups' list, its delete link, and confirms. */
async function deleteGroup(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/admin/auth/group/`);
  await submit(
    page,
    `#result_list a:text-is("${NAMES.group}")`,
    (u) => u.pathname.endsWith("/change/"),
  );
  await submit(page, "a.deletelink", (u) => u.pathname.endsWith("/delete/"));
  await submit(page, "form input[type=submit]", (u) => u.pathname === "/admin/auth/group/");
}

/**
 * Records the journey on the instance at `origin`.
 *
 * @example
 * ```ts ignore
 * import { recordJourney } from "./django_journey.ts";
 * const { playwright } = await recordJourney("http://127.0.0.1:8000");
 * ```
 */
export async function recordJourney(origin: string): Promise<Recordings> {
  return await recordSession(async (page) => {
    await page.goto(`${origin}/admin/login/?next=/admin/`);
    await page.fill("#id_username", LOGIN.username);
    await page.fill("#id_password", LOGIN.password);
    await submit(page, "input[type=submit]", (u) => u.pathname === "/admin/");
    await addGroup(page, origin);
    const changePath = await addUser(page, origin);
    await page.fill("#searchbar", NAMES.user.slice(0, 4));
    await submit(page, "#changelist-search input[type=submit]", (u) => u.search.includes("q="));
    await page.goto(`${origin}${changePath.replace(/change\/$/, "delete/")}`);
    await submit(page, "form input[type=submit]", (u) => u.pathname === "/admin/auth/user/");
    await deleteGroup(page, origin);
    await submit(page, "#user-tools a[href$='logout/']", (u) => u.pathname.includes("logout"));
  }, 120_000);
}

if (import.meta.main) {
  const missing = djangoMissing();
  if (missing) throw new Error(missing);
  const instance = await start(djangoLaunch());
  try {
    const { playwright, chromeHar } = await recordJourney(instance.origin);
    await writeRecordings(
      new URL("./fixtures/django/", import.meta.url).pathname,
      "journey",
      { playwright: publicRecording(playwright), chromeHar: publicRecording(chromeHar) },
    );
  } finally {
    await instance.close();
  }
}
