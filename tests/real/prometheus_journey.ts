/**
 * The journey a new user takes through Prometheus's web UI (Debian's 2.42
 * ships the classic UI under `/classic/`), driven in Chromium and recorded
 * as HAR (tests/support/record_har.ts), both forms: open the graph page, pick
 * a metric from the metrics list, run it as an instant query (Console tab)
 * and as a range query (Graph tab), type into the expression box so its
 * autocomplete answers, open Alerts, Rules, Targets, Service Discovery and
 * the Status pages (runtime, flags, configuration), read the TSDB status
 * through the API (the classic UI has no page for it), and reload the
 * configuration (`POST /-/reload`; the UI offers no write). The page's
 * reads carry times: the instant query `time=`, the range query `start=`,
 * `end=`, `step=`, and jQuery's cache-buster `_=` in milliseconds.
 *
 * @module
 */
import type { Page } from "playwright-core";
import { answered, type Recordings, recordSession } from "../support/record_har.ts";
import { settle } from "../support/page_settle.ts";

/** Opens `path` under `origin` and waits for its calls. */
async function open(page: Page, origin: string, path: string) {
  await settle(page, () => page.goto(`${origin}${path}`));
}

/** Runs the expression box's query on the tab `tab` ("Graph" or "Console"), waiting for `api`. */
async function execute(page: Page, tab: string, api: RegExp) {
  await settle(
    page,
    () =>
      page.locator(`#graph_container a.nav-link:text-is("${tab}")`).first().dispatchEvent("click"),
  );
  await settle(page, () =>
    answered(
      page,
      "GET",
      api,
      () => page.locator('input.execute_btn[value="Execute"]').first().click(),
    ));
}

async function queries(page: Page, origin: string) {
  await open(page, origin, "/classic/graph");
  // The metrics list is filled from what was scraped: a fresh server has none for a few seconds.
  await page.locator("select.expression_select option[value=up]").first().waitFor({
    state: "attached",
  });
  await page.selectOption("select.expression_select", "up");
  await execute(page, "Console", /\/api\/v1\/query$/);
  await execute(page, "Graph", /\/api\/v1\/query_range$/);
  const box = page.locator("textarea.expression_input").first();
  await box.fill("");
  await settle(page, () => box.pressSequentially("prometheus_http_req", { delay: 30 }));
  await box.fill("job:up:sum");
  await box.press("Escape");
  // Going back to the Console tab runs the box's query by itself.
  await settle(
    page,
    () =>
      answered(
        page,
        "GET",
        /\/api\/v1\/query$/,
        () =>
          page.locator('#graph_container a.nav-link:text-is("Console")').first().dispatchEvent(
            "click",
          ),
      ),
  );
}

/** The API calls the UI has no page or button for, made from the page as its own script would. */
async function apiCalls(page: Page) {
  await settle(page, () =>
    page.evaluate(async () => {
      await fetch("/api/v1/status/tsdb").then((r) => r.text());
      await fetch("/api/v1/status/buildinfo").then((r) => r.text());
      const reload = await fetch("/-/reload", { method: "POST" });
      if (!reload.ok) throw new Error(`reload answered ${reload.status}`);
    }));
}

/**
 * Records the journey on the server at `origin`.
 *
 * @example
 * ```ts ignore
 * import { recordJourney } from "./prometheus_journey.ts";
 * const { playwright } = await recordJourney("http://127.0.0.1:9090");
 * ```
 */
export async function recordJourney(origin: string): Promise<Recordings> {
  return await recordSession(async (page) => {
    await queries(page, origin);
    for (
      const path of [
        "/classic/alerts",
        "/classic/rules",
        "/classic/targets",
        "/classic/service-discovery",
        "/classic/status",
        "/classic/flags",
        "/classic/config",
      ]
    ) await open(page, origin, path);
    await apiCalls(page);
  }, 180_000);
}
