/**
 * The journey a new user takes through Syncthing's web GUI, driven in
 * Chromium and recorded as HAR (tests/support/record_har.ts): open the GUI,
 * decline the usage-reporting prompt, add a folder with a label (at the
 * path the GUI proposes: the instance's home, which an answer names, and the
 * label), edit its rescan
 * interval, add a remote device by a made-up valid device id, rename this
 * device in the settings, then remove the folder and the device. Every save
 * is one `PUT /rest/config` carrying the whole config, and each click waits
 * for its answer.
 *
 * @module
 */
import type { Page } from "playwright-core";
import { type Recordings, recordSession } from "../support/record_har.ts";

/** The label of the folder the journey adds (its path is `~/` and this). */
export const FOLDER_LABEL = "flowrun-photos";

/** A remote device: an id `syncthing generate` made once, for a device that never connects. */
export const REMOTE_ID = "5QV275M-WRKFQTH-RIKQ4WJ-LWLR6V5-MMHIVWB-6ABHMBD-QW2V23A-AWJL2AF";

/** Waits for the answer to a `PUT /rest/config` (a save of the whole config) and the GUI's reload after it. */
async function saved(page: Page) {
  const answered = (method: string, path: string) =>
    page.waitForResponse((r) =>
      new URL(r.url()).pathname === path && r.request().method() === method
    );
  await answered("PUT", "/rest/config");
  await answered("GET", "/rest/config");
  await answered("GET", "/rest/config/insync");
}

/** Clicks the visible button of `scope` whose text is `text`, and waits for the save it makes. */
async function clickAndSave(page: Page, scope: string, text: string): Promise<void> {
  const button = page.locator(`${scope} button:visible`, { hasText: text }).first();
  await Promise.all([saved(page), button.click()]);
}

/** Opens the edit dialog of the folder or device panel whose heading holds `name`. */
async function openEditor(page: Page, list: "#folders" | "#devices", name: string) {
  const panel = page.locator(`${list} > .panel`, { hasText: name }).first();
  const editor = list === "#folders" ? "#editFolder" : "#editDevice";
  // The list is drawn anew when the GUI polls the config: retry a click that lost its element.
  for (let attempt = 0; attempt < 5; attempt++) {
    const edit = panel.locator("button:visible", { hasText: "Edit" }).first();
    if (!(await edit.isVisible())) await panel.locator(".panel-heading").first().click();
    const clicked = await edit.click({ timeout: 3_000 }).then(() => true, () => false);
    if (!clicked) continue;
    const shown = page.locator(editor).waitFor({ state: "visible", timeout: 3_000 });
    if (await shown.then(() => true, () => false)) return;
  }
  await page.locator(editor).waitFor({ state: "visible" });
}

/** Removes what the open editor edits, through its confirmation dialog. */
async function removeOpened(page: Page, editor: string, confirmation: string) {
  await page.locator(`${editor} button:visible`, { hasText: "Remove" }).first().click();
  await clickAndSave(page, confirmation, "Yes");
  await page.locator(confirmation).waitFor({ state: "hidden" });
  await page.locator(editor).waitFor({ state: "hidden" });
}

/**
 * Records the journey on the instance at `origin`.
 *
 * @example
 * ```ts ignore
 * import { recordJourney } from "./syncthing_journey.ts";
 * const { playwright } = await recordJourney("http://127.0.0.1:8384");
 * ```
 */
export async function recordJourney(origin: string): Promise<Recordings> {
  return await recordSession(async (page) => {
    await page.goto(`${origin}/`);
    // A new instance asks whether to send anonymous usage reports: no.
    await page.locator("#ur").waitFor({ state: "visible", timeout: 20_000 });
    await clickAndSave(page, "#ur", "No");
    await page.locator("#ur").waitFor({ state: "hidden" });

    await page.locator("button:visible", { hasText: "Add Folder" }).click();
    await page.locator("#editFolder").waitFor({ state: "visible" });
    await page.fill("#folderLabel", FOLDER_LABEL);
    // The GUI proposes the path: the home `/rest/system/status` answered (`tilde`) and the label.
    await page.waitForFunction(
      `document.querySelector("#folderPath")?.value.endsWith(${JSON.stringify(FOLDER_LABEL)})`,
    );
    await clickAndSave(page, "#editFolder", "Save");
    await page.locator("#editFolder").waitFor({ state: "hidden" });

    await openEditor(page, "#folders", FOLDER_LABEL);
    await page.locator("#editFolder a[href='#folder-advanced']").click();
    await page.fill("#rescanIntervalS", "600");
    await clickAndSave(page, "#editFolder", "Save");
    await page.locator("#editFolder").waitFor({ state: "hidden" });

    await page.locator("button:visible", { hasText: "Add Remote Device" }).click();
    await page.locator("#editDevice").waitFor({ state: "visible" });
    await page.fill("#deviceID", REMOTE_ID);
    await page.fill("#editDevice #name", "flowrun-peer");
    await clickAndSave(page, "#editDevice", "Save");
    await page.locator("#editDevice").waitFor({ state: "hidden" });

    await page.locator("a.dropdown-toggle:visible", { hasText: "Actions" }).click();
    await page.locator("a:visible", { hasText: "Settings" }).first().click();
    await page.locator("#settings").waitFor({ state: "visible" });
    await page.fill("#DeviceName", "flowrun-box");
    await clickAndSave(page, "#settings", "Save");
    await page.locator("#settings").waitFor({ state: "hidden" });

    await openEditor(page, "#folders", FOLDER_LABEL);
    await removeOpened(page, "#editFolder", "#remove-folder-confirmation");
    await openEditor(page, "#devices", "flowrun-peer");
    await removeOpened(page, "#editDevice", "#remove-device-confirmation");
  }, 120_000);
}

/**
 * A recording made public: the instance's temp folder (`dir`, its home,
 * which `/rest/system/status` answers as `tilde`) renamed to a folder under
 * `/srv` with the same random part, so a stored recording names no path of
 * this machine yet still holds a folder only that instance had (also where
 * a query names it percent-encoded).
 *
 * @example
 * ```ts
 * import { publicRecording } from "./syncthing_journey.ts";
 * const har = publicRecording('{"tilde":"/tmp/flowrun-real-ab12"}', "/tmp/flowrun-real-ab12");
 * if (har !== '{"tilde":"/srv/syncthing-ab12"}') throw new Error(har);
 * ```
 */
export function publicRecording(har: string, dir: string): string {
  const random = dir.slice(dir.lastIndexOf("-") + 1);
  const renamed = `/srv/syncthing-${random}`;
  // The GUI's folder browser sends the folder in a query, percent-encoded.
  return har.replaceAll(dir, renamed).replaceAll(
    encodeURIComponent(dir),
    encodeURIComponent(renamed),
  );
}
