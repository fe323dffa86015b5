/**
 * The journey a user takes through Zabbix's frontend, driven in Chromium
 * and recorded as HAR (tests/support/record_har.ts): sign in as Admin, add
 * a host group and rename it, add a host in it (the group picked in a
 * multiselect that searches by `jsrpc.php`), add an item to the host, edit
 * the host's visible name in its dialog, add a user in a group with a role,
 * then delete the user, the host and the group (each by its list's
 * checkbox, its Delete button and the browser's confirmation), sign out.
 * Each step waits for what its page shows; every wait is bounded.
 *
 * Run as a script it records both forms on a fresh instance and stores them
 * in tests/real/fixtures/zabbix/ (`deno run -A tests/real/zabbix_journey.ts [OUT]`).
 *
 * @module
 */
import type { Page } from "playwright-core";
import { type Recordings, recordSession, writeRecordings } from "../support/record_har.ts";
import { openSettled as open, settle } from "../support/page_settle.ts";
import { start } from "./servers.ts";
import { LOGIN, zabbixLaunch, zabbixMissing } from "./zabbix.ts";
import { publicRecording } from "./unleash_journey.ts";

/** What the journey makes: the group, the host and its item, the user (and its password). */
export const MADE = {
  group: { name: "Harbour Servers", edited: "Harbour Servers East" },
  host: { name: "harbour-web", visible: "Harbour Web" },
  item: { name: "Harbour load", key: "harbour.load" },
  user: { username: "deckhand", name: "Deck", group: "Guests", role: "User role" },
  userPassword: "Tide-Mark-2048",
} as const;

/** Types `text` into the multiselect `id` and picks the suggestion it finds. */
async function pick(page: Page, id: string, text: string): Promise<void> {
  const input = page.locator(`#${id} input[type=text]`);
  await settle(page, () => input.pressSequentially(text.slice(0, 6), { delay: 30 }));
  await settle(page, () => page.click(`.multiselect-available li[data-label="${text}"]`));
}

/** Adds the host group, then renames it. */
async function group(page: Page, origin: string): Promise<void> {
  await open(page, origin, "hostgroups.php?form=create");
  await page.fill("#name", MADE.group.name);
  await settle(page, () => page.click("button#add"));
  await settle(page, () => page.click(`a:text-is("${MADE.group.name}")`));
  await page.fill("#name", MADE.group.edited);
  await settle(page, () => page.click("button#update"));
}

/** Adds the host in the group, an item on it, then edits its visible name in its dialog. */
async function host(page: Page, origin: string): Promise<void> {
  await open(page, origin, "zabbix.php?action=host.edit");
  await page.fill("#host", MADE.host.name);
  await pick(page, "groups_", MADE.group.edited);
  await settle(page, () => page.click("button[type=submit][name=add]"));
  await open(page, origin, "zabbix.php?action=host.list");
  const row = page.locator(`tr:has(a:text-is("${MADE.host.name}"))`);
  await settle(page, () => row.locator("a:text-is('Items')").click());
  await settle(page, () => page.click("button:text-is('Create item')"));
  await page.fill("#name", MADE.item.name);
  await page.fill("#key", MADE.item.key);
  await page.click("#label-type");
  await page.click("z-select#type li:text-is('Zabbix trapper')");
  await settle(page, () => page.click("button#add"));
  await open(page, origin, "zabbix.php?action=host.list");
  await settle(page, () => page.click(`a:text-is("${MADE.host.name}")`));
  await page.fill(".overlay-dialogue #visiblename", MADE.host.visible);
  await settle(page, () => page.click(".overlay-dialogue button:text-is('Update')"));
}

/** Adds the user in a group, with a password and a role. */
async function user(page: Page, origin: string): Promise<void> {
  await open(page, origin, "zabbix.php?action=user.edit");
  await page.fill("#username", MADE.user.username);
  await page.fill("#name", MADE.user.name);
  await pick(page, "user_groups_", MADE.user.group);
  await page.fill("#password1", MADE.userPassword);
  await page.fill("#password2", MADE.userPassword);
  await page.click("a:text-is('Permissions')");
  await pick(page, "roleid", MADE.user.role);
  await settle(page, () => page.click("button#add"));
}

/** Deletes the row named `text` on the list at `path`: its checkbox, Delete, the confirmation. */
async function remove(page: Page, origin: string, path: string, text: string): Promise<void> {
  await open(page, origin, path);
  await page.locator(`tr:has(a:text-is("${text}")) input[type=checkbox]`).check();
  page.once("dialog", (dialog) => void dialog.accept());
  await settle(page, () => page.click("button:text-is('Delete')"));
}

/**
 * Records the journey on the instance at `origin`.
 *
 * @example
 * ```ts ignore
 * import { recordJourney } from "./zabbix_journey.ts";
 * const { playwright } = await recordJourney("http://127.0.0.1:8080");
 * ```
 */
export async function recordJourney(origin: string): Promise<Recordings> {
  return await recordSession(async (page) => {
    await open(page, origin, "index.php");
    await page.fill("#name", LOGIN.username);
    await page.fill("#password", LOGIN.password);
    await settle(page, () => page.click("button#enter"));
    await group(page, origin);
    await host(page, origin);
    await user(page, origin);
    await remove(page, origin, "zabbix.php?action=user.list", MADE.user.username);
    await remove(page, origin, "zabbix.php?action=host.list", MADE.host.visible);
    await remove(page, origin, "hostgroups.php", MADE.group.edited);
    await settle(page, () => page.click("a.icon-signout"));
  }, 240_000);
}

if (import.meta.main) {
  const why = zabbixMissing();
  if (why) throw new Error(why);
  const instance = await start(zabbixLaunch());
  try {
    const recorded = await recordJourney(instance.origin);
    const out = Deno.args[0] ?? new URL("./fixtures/zabbix", import.meta.url).pathname;
    await writeRecordings(out, "journey", {
      playwright: publicRecording(recorded.playwright),
      chromeHar: publicRecording(recorded.chromeHar),
    });
  } finally {
    await instance.close();
  }
}
