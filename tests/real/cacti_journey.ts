/**
 * The journey a user takes through Cacti, driven in Chromium and recorded
 * as HAR (tests/support/record_har.ts): log in as the admin, add a device
 * and edit its name, add a graph tree, lock it for editing, add a root
 * branch and name it (jstree's AJAX calls, the branch's id taken from the
 * answer to its creation), finish editing, add a user and edit its full
 * name, change a setting, then delete the user, the device and the tree
 * (each through the list's action menu and its confirmation page), log out.
 * Every form carries CSRF-magic's `__csrf_magic` token. Each step waits for
 * what its page shows; every wait is bounded.
 *
 * Run as a script it records both forms on a fresh instance and stores them
 * in tests/real/fixtures/cacti/ (`deno run -A tests/real/cacti_journey.ts`).
 *
 * @module
 */
import type { Page } from "playwright-core";
import { type Recordings, recordSession, writeRecordings } from "../support/record_har.ts";
import { openSettled as open, settle } from "../support/page_settle.ts";
import { start } from "./servers.ts";
import { cactiLaunch, cactiMissing, LOGIN } from "./cacti.ts";
import { publicRecording } from "./unleash_journey.ts";

/** What the journey makes: the device, the tree and its branch, the user (and its password). */
export const MADE = {
  device: { description: "Harbour Router", hostname: "127.0.0.1", edited: "Harbour Gateway" },
  tree: { name: "Harbour Sites", branch: "Quay Side" },
  user: { username: "deckhand", fullName: "Deck Hand", edited: "Deck Hand Senior" },
  userPassword: "Tide-Mark-2048",
  setting: { name: "default_graph_height", value: "180" },
} as const;

/** Saves the edit form shown and waits for the page it leads to. */
function save(page: Page): Promise<void> {
  return settle(page, () => page.click("form input[type=submit]#submit"));
}

/** Adds the device (no template: no poller here), then renames it. */
async function device(page: Page, origin: string): Promise<void> {
  await open(page, origin, "host.php?action=edit");
  await page.fill("#description", MADE.device.description);
  await page.fill("#hostname", MADE.device.hostname);
  await save(page);
  await open(page, origin, "host.php");
  await settle(page, () => page.click(`a.linkEditMain:has-text("${MADE.device.description}")`));
  await page.fill("#description", MADE.device.edited);
  await save(page);
}

/** Adds the tree, locks it, adds a root branch and names it, unlocks it. */
async function tree(page: Page, origin: string): Promise<void> {
  await open(page, origin, "tree.php?action=edit");
  await page.fill("#name", MADE.tree.name);
  await save(page);
  await settle(page, () => page.click("#lock"));
  await settle(page, () => page.click("#addbranch"));
  const input = page.locator("#ctree input.jstree-rename-input");
  await input.fill(MADE.tree.branch);
  await settle(page, () => input.press("Enter"));
  await settle(page, () => page.click("#unlock"));
}

/** Adds the user with its password, then edits its full name. */
async function user(page: Page, origin: string): Promise<void> {
  await open(page, origin, "user_admin.php?action=user_edit&tab=general");
  await page.fill("#username", MADE.user.username);
  await page.fill("#full_name", MADE.user.fullName);
  await page.fill("#password", MADE.userPassword);
  await page.fill("#password_confirm", MADE.userPassword);
  await save(page);
  await open(page, origin, "user_admin.php");
  await settle(page, () => page.click(`a.linkEditMain:has-text("${MADE.user.username}")`));
  await page.fill("#full_name", MADE.user.edited);
  await save(page);
}

/** Changes one setting of the General tab (it names no path of the instance) and saves it. */
async function setting(page: Page, origin: string): Promise<void> {
  await open(page, origin, "settings.php?tab=general");
  await page.fill(`#${MADE.setting.name}`, MADE.setting.value);
  await save(page);
}

/** Deletes the row named `text` on the list at `path` through its action menu and confirmation. */
async function remove(page: Page, origin: string, path: string, text: string): Promise<void> {
  await open(page, origin, path);
  await page.locator(`tr.selectable:has-text("${text}") td.checkbox input`).check({ force: true });
  // jQuery UI draws its own menu over the hidden select.
  await page.selectOption("#drp_action", "1", { force: true });
  await settle(page, () => page.click("#submit"));
  await settle(page, () => page.click("input[type=submit][value=Continue]"));
}

/**
 * Records the journey on the instance at `origin`.
 *
 * @example
 * ```ts ignore
 * import { recordJourney } from "./cacti_journey.ts";
 * const { playwright } = await recordJourney("http://127.0.0.1:8080");
 * ```
 */
export async function recordJourney(origin: string): Promise<Recordings> {
  return await recordSession(async (page) => {
    await open(page, origin, "index.php");
    await page.fill("#login_username", LOGIN.username);
    await page.fill("#login_password", LOGIN.password);
    await settle(page, () => page.click("#login input[type=submit]"));
    await device(page, origin);
    await tree(page, origin);
    await user(page, origin);
    await setting(page, origin);
    await remove(page, origin, "user_admin.php", MADE.user.username);
    await remove(page, origin, "host.php", MADE.device.edited);
    await remove(page, origin, "tree.php", MADE.tree.name);
    await open(page, origin, "logout.php");
  }, 180_000);
}

if (import.meta.main) {
  const missing = cactiMissing();
  if (missing) throw new Error(missing);
  const instance = await start(cactiLaunch());
  try {
    const { playwright, chromeHar } = await recordJourney(instance.origin);
    await writeRecordings(
      Deno.args[0] ?? new URL("./fixtures/cacti/", import.meta.url).pathname,
      "journey",
      { playwright: publicRecording(playwright), chromeHar: publicRecording(chromeHar) },
    );
  } finally {
    await instance.close();
  }
}
