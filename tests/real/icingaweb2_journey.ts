/**
 * The journey a user takes through Icinga Web 2's own configuration pages,
 * driven in Chromium and recorded as HAR (tests/support/record_har.ts): log
 * in, add a user, a group, the user to the group, a role for the group with
 * a permission, a dashboard with a dashlet, change the time zone and page size
 * in the preferences, edit the user (deactivate), delete the group, log
 * out. Each page is opened by its link, which Icinga's script loads into a
 * container by XHR; each form is posted by XHR with the `CSRFToken` its page
 * computed, and the answer tells the next page in `X-Icinga-Redirect`.
 * Every wait is bounded.
 *
 * Run as a script it records both forms on a fresh instance and stores them
 * in tests/real/fixtures/icingaweb2/ (`deno run -A tests/real/icingaweb2_journey.ts`).
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
import { start } from "./servers.ts";
import { icingaweb2Launch, icingaweb2Missing, LOGIN } from "./icingaweb2.ts";
import { publicRecording } from "./unleash_journey.ts";

/** What the journey makes. */
export const MADE = {
  user: { name: "deckhand", password: "tide-watch-7" },
  group: "harbour-crew",
  role: "Harbour crew",
  dashboard: { pane: "Harbour", dashlet: "Crew", url: "group/list?backend=icingaweb2" },
  timezone: "Europe/Berlin",
  pageSize: "50",
} as const;

/** Waits (bounded) until the page's requests have settled, as the user waits for the container. */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState("networkidle", { timeout: 10_000 }).catch(() => {});
}

/** Clicks the link whose href starts with `href` and waits for the container it loads. */
async function follow(page: Page, href: string): Promise<void> {
  const path = new RegExp(`^${href.split("?")[0].replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`);
  await answered(page, "GET", path, () => page.locator(`a[href^="${href}"]`).first().click());
  await settled(page);
}

/** Submits the form posted to `path` with `act`, then waits for the page its answer names. */
async function submit(page: Page, path: RegExp, act: () => Promise<unknown>): Promise<void> {
  await answered(page, "POST", path, act);
  await settled(page);
}

/**
 * Toggles the checkbox `name` as its switch does: the box is hidden behind the switch's label, and
 * a role's permissions sit in folded sections, so the click is the box's own.
 */
async function toggle(page: Page, name: string): Promise<void> {
  await page.locator(`input[type=checkbox][name="${name}"]`).first().dispatchEvent("click");
}

/** Adds the user, the group, the user to the group. */
async function people(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/user/list?backend=icingaweb2`);
  await follow(page, "/user/add?");
  await page.fill("input[name=user_name]", MADE.user.name);
  await page.fill("input[name=password]", MADE.user.password);
  await submit(page, /^\/user\/add$/, () => page.click("input[name=btn_submit]"));
  await follow(page, "/group/list");
  await follow(page, "/group/add?");
  await page.fill("input[name=group_name]", MADE.group);
  await submit(page, /^\/group\/add$/, () => page.click("input[name=btn_submit]"));
  await page.goto(`${origin}/group/show?backend=icingaweb2&group=${MADE.group}`);
  await follow(page, "/group/addmember?");
  await page.selectOption("select[name='user_name[]']", MADE.user.name);
  await submit(page, /^\/group\/addmember$/, () => page.click("input[name=btn_submit]"));
}

/** Adds a role for the group, with one permission. */
async function role(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/role/list`);
  await follow(page, "/role/add");
  await page.fill("input[name=name]", MADE.role);
  await page.fill("textarea[name=groups]", MADE.group);
  await toggle(page, "applicationlog");
  await settled(page);
  await submit(page, /^\/role\/add$/, () => page.click("input[name=btn_submit]"));
}

/** Adds a dashlet on a new dashboard, then changes the theme and the page size. */
async function dashboardAndPreferences(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/dashboard/new-dashlet`);
  await page.fill("textarea[name=url]", MADE.dashboard.url);
  await page.fill("input[name=dashlet]", MADE.dashboard.dashlet);
  await page.fill("input[name=pane]", MADE.dashboard.pane);
  await submit(page, /^\/dashboard\/new-dashlet$/, () => page.click("input[name=btn_submit]"));
  await page.goto(`${origin}/account`);
  // Not the theme: its list sends the form as it changes, and 2.11.4 answers that 500
  // (PreferenceForm has no btn_submit element for Form::isSubmitted to read).
  await page.selectOption("select[name=timezone]", MADE.timezone);
  await page.fill("input[name=default_page_size]", MADE.pageSize);
  await submit(page, /^\/account$/, () => page.click(`input[value="Save to the Preferences"]`));
}

/** Deactivates the user, deletes the group. */
async function editAndDelete(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/user/show?backend=icingaweb2&user=${MADE.user.name}`);
  await follow(page, "/user/edit?");
  await toggle(page, "is_active");
  await submit(page, /^\/user\/edit$/, () => page.click("input[name=btn_submit]"));
  await page.goto(`${origin}/group/list?backend=icingaweb2`);
  await follow(page, "/group/remove?");
  await submit(
    page,
    /^\/group\/remove$/,
    () => page.locator("input[name=btn_submit]").last().click(),
  );
}

/**
 * Records the journey on the instance at `origin`.
 *
 * @example
 * ```ts ignore
 * import { recordJourney } from "./icingaweb2_journey.ts";
 * const { playwright } = await recordJourney("http://127.0.0.1:8080");
 * ```
 */
export async function recordJourney(origin: string): Promise<Recordings> {
  return await recordSession(async (page) => {
    await page.goto(`${origin}/authentication/login`);
    await page.fill("input[name=username]", LOGIN.username);
    await page.fill("input[name=password]", LOGIN.password);
    await Promise.all([
      page.waitForURL(/\/dashboard/, { timeout: 15_000 }),
      page.click("input[name=btn_submit]"),
    ]);
    await settled(page);
    await people(page, origin);
    await role(page, origin);
    await dashboardAndPreferences(page, origin);
    await editAndDelete(page, origin);
    await page.goto(`${origin}/authentication/logout`);
    await settled(page);
  }, 180_000);
}

if (import.meta.main) {
  const missing = icingaweb2Missing();
  if (missing) throw new Error(missing);
  const instance = await start(icingaweb2Launch());
  try {
    const { playwright, chromeHar } = await recordJourney(instance.origin);
    await writeRecordings(
      Deno.args[0] ?? new URL("./fixtures/icingaweb2/", import.meta.url).pathname,
      "journey",
      { playwright: publicRecording(playwright), chromeHar: publicRecording(chromeHar) },
    );
  } finally {
    await instance.close();
  }
}
