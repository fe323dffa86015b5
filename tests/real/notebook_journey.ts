/**
 * The journey a user takes through the classic Jupyter Notebook 6.4 web UI,
 * driven in Chromium and recorded as HAR (tests/support/record_har.ts): log
 * in with the token typed in the login form, "New → Python 3" (a new tab
 * opens on `Untitled.ipynb` and starts a session, whose kernel it talks to
 * over a WebSocket), type `1 + 1` in the first cell and run it (until `2`
 * shows), save, rename the notebook, "Close and Halt" (the kernel is shut
 * down and the tab closes), then delete the notebook from the tree page.
 * Each action waits for the API call it makes to be answered, bounded.
 *
 * chrome-har's recording holds the events of the first tab only (the tree
 * page: the login, the create, the list and the delete); Playwright's holds
 * both tabs and the kernel's WebSocket messages.
 *
 * Run as a script it records both forms on a fresh instance and stores them
 * in tests/real/fixtures/notebook/ (`deno run -A tests/real/notebook_journey.ts`).
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
import { NOTEBOOK_TOKEN, withNotebook } from "./notebook.ts";

/** The name the user gives the notebook. */
export const NOTEBOOK_NAME = "flowrun-journey";

/** On the notebook's tab: runs `1 + 1` in the first cell and waits for `2`. */
async function runCell(nb: Page): Promise<void> {
  await nb.waitForFunction(() =>
    // deno-lint-ignore no-explicit-any
    (globalThis as any).Jupyter?.notebook?.kernel?.is_connected?.() === true
  );
  await nb.click(".cell .CodeMirror");
  await nb.keyboard.type("1 + 1");
  await nb.keyboard.press("Shift+Enter");
  await nb.locator(".output_area .output_subarea", { hasText: /^\s*2\s*$/ }).first().waitFor();
}

/** On the notebook's tab: saves, renames, then closes it and halts the kernel. */
async function saveRenameHalt(nb: Page): Promise<void> {
  await answered(
    nb,
    "PUT",
    /^\/api\/contents\/Untitled\.ipynb$/,
    () => nb.click("#save-notbook button"),
  );
  await nb.click("#notebook_name");
  const input = nb.locator(".modal-body input");
  await input.fill(NOTEBOOK_NAME);
  await answered(
    nb,
    "PATCH",
    /^\/api\/contents\/Untitled\.ipynb$/,
    () => nb.locator(".modal-footer button", { hasText: "Rename" }).click(),
  );
  await nb.locator(".modal").waitFor({ state: "detached" });
  await nb.click("#filelink");
  await Promise.all([
    nb.waitForEvent("close"),
    answered(nb, "DELETE", /^\/api\/sessions\//, () => nb.click("#close_and_halt a")),
  ]);
}

/**
 * Records the journey on the instance at `origin`.
 *
 * @example
 * ```ts ignore
 * import { recordJourney } from "./notebook_journey.ts";
 * const { playwright } = await recordJourney("http://127.0.0.1:8888");
 * ```
 */
export function recordJourney(origin: string): Promise<Recordings> {
  return recordSession(async (page) => {
    // A busy machine takes its time, and a kernel a few seconds to start.
    page.context().setDefaultTimeout(30_000);
    await page.goto(`${origin}/login`);
    await page.fill("#password_input", NOTEBOOK_TOKEN);
    await answered(page, "GET", /^\/api\/contents$/, () => page.click("#login_submit"));
    await page.click("#new-dropdown-button");
    const [nb] = await Promise.all([
      page.context().waitForEvent("page"),
      answered(page, "POST", /^\/api\/contents$/, () => page.click("#kernel-python3 a")),
    ]);
    await runCell(nb);
    await saveRenameHalt(nb);
    await page.bringToFront();
    await answered(page, "GET", /^\/api\/contents$/, () => page.reload());
    const row = page.locator(".list_item", { hasText: NOTEBOOK_NAME });
    await row.locator("input[type=checkbox]").check();
    await page.click("#notebook_toolbar .delete-button");
    await answered(
      page,
      "DELETE",
      new RegExp(`^/api/contents/${NOTEBOOK_NAME}\\.ipynb$`),
      () => page.locator(".modal-footer button", { hasText: "Delete" }).click(),
    );
    await row.waitFor({ state: "detached" });
  }, 150_000);
}

/**
 * A recording made public: the bodies of the app's own scripts, styles,
 * fonts and images are left out (their size and mime type kept), as
 * tests/real/unleash_journey.ts does: megabytes of bundled code the converter
 * drops. The instance's folder (`dir`, which the tree page shows) is renamed
 * to a folder under `/srv` with the same random part, and the login page's
 * help text's example folder (`/Users/you/notebooks`) moved there too: a
 * stored recording names no path that looks like a machine's.
 *
 * @example
 * ```ts
 * import { publicRecording } from "./notebook_journey.ts";
 * const entry = (mimeType: string, text: string) => ({ response: { content: { mimeType, text } } });
 * const har = JSON.stringify({ log: { entries: [
 *   entry("application/javascript", "x()"), entry("text/html", "/tmp/flowrun-real-ab12/root"),
 * ] } });
 * const out = JSON.parse(publicRecording(har, "/tmp/flowrun-real-ab12")).log.entries;
 * if ("text" in out[0].response.content) throw new Error();
 * if (out[1].response.content.text !== "/srv/notebook-ab12/root") throw new Error();
 * ```
 */
export function publicRecording(har: string, dir: string): string {
  const parsed = JSON.parse(har);
  for (const e of parsed.log.entries) {
    const content = e.response?.content ?? {};
    if (/javascript|css|font|image\//.test(content.mimeType ?? "")) {
      delete content.text;
      delete content.encoding;
    }
  }
  const random = dir.slice(dir.lastIndexOf("-") + 1);
  return JSON.stringify(parsed, null, 2).replaceAll(dir, `/srv/notebook-${random}`)
    .replaceAll("/Users/you/", "/srv/you/");
}

if (import.meta.main) {
  const recorded = await withNotebook(start, async (a) => {
    const { playwright, chromeHar } = await recordJourney(a.origin);
    return {
      playwright: publicRecording(playwright, a.dir),
      chromeHar: publicRecording(chromeHar, a.dir),
    };
  });
  await writeRecordings(
    new URL("./fixtures/notebook/", import.meta.url).pathname,
    "journey",
    recorded,
  );
}
