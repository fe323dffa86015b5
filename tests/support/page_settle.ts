/**
 * Waiting for a server-rendered admin page that works by XHR: a save answered by a redirect its
 * script follows, a list loaded after the page, so no one navigation marks the end of a step
 * (Playwright's `networkidle` is reached too early). The Cacti and Zabbix journeys share it.
 *
 * @module
 */
import type { Page } from "playwright-core";

/**
 * Runs `act`, then waits (bounded: 30 s) until the page has had no request in flight for 700 ms.
 *
 * @example
 * ```ts ignore
 * import { settle } from "./page_settle.ts";
 * declare const page: import("playwright-core").Page;
 * await settle(page, () => page.click("#save"));
 * ```
 */
export async function settle(page: Page, act: () => Promise<unknown>): Promise<void> {
  let inFlight = 0;
  let last = Date.now();
  const up = () => {
    inFlight++;
    last = Date.now();
  };
  const down = () => {
    inFlight--;
    last = Date.now();
  };
  page.on("request", up);
  page.on("requestfinished", down);
  page.on("requestfailed", down);
  try {
    await act();
    for (let poll = 0; poll < 300 && (inFlight > 0 || Date.now() - last < 700); poll++) {
      await new Promise((r) => setTimeout(r, 100));
    }
  } finally {
    page.off("request", up);
    page.off("requestfinished", down);
    page.off("requestfailed", down);
  }
}

/**
 * Opens `path` under `origin` and waits for it and its XHRs ({@linkcode settle}).
 *
 * @example
 * ```ts ignore
 * import { openSettled } from "./page_settle.ts";
 * declare const page: import("playwright-core").Page;
 * await openSettled(page, "http://127.0.0.1:8080", "index.php");
 * ```
 */
export function openSettled(page: Page, origin: string, path: string): Promise<void> {
  return settle(page, () => page.goto(`${origin}/${path}`));
}
