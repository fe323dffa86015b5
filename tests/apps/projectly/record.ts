/**
 * Re-records projectly's stored sessions (`deno task record:apps`; never run
 * by the test suite): starts the app (server.mjs) on 127.0.0.1:8601 with its
 * collector on 8602, the ports the stored recordings name, drives the UI in
 * Debian's headless Chromium through playwright-core, and writes each
 * journey twice: `<journey>.pw.har` (Playwright `recordHar`) and
 * `<journey>.cdp.har` (the DevTools events turned into a HAR by chrome-har,
 * with `_resourceType`, as DevTools' "Save all as HAR"). The collector is
 * reached as `metrics.tracker.test`, another site, through Chromium's
 * `--host-resolver-rules`.
 *
 *   deno run -A tests/apps/projectly/record.ts [OUT_DIR]   (default: this folder)
 *
 * Kept: full.pw.har, full.cdp.har and bearer.pw.har (the bearer-only journey).
 */
import { chromium, type Page } from "playwright-core";
import { harFromMessages } from "chrome-har";
import { chromiumPath } from "../../support/browser.ts";

const HERE = new URL(".", import.meta.url).pathname;
const OUT = Deno.args[0] ?? HERE;
const PASSWORD = "Wonderland-2024!";
const APP = "http://127.0.0.1:8601";

/** The stored journeys and which recordings of each are kept. */
const JOURNEYS: { name: "full" | "bearer"; keep: ("pw" | "cdp")[] }[] = [
  { name: "full", keep: ["pw", "cdp"] },
  { name: "bearer", keep: ["pw"] },
];

const EVENTS = [
  "Page.loadEventFired",
  "Page.domContentEventFired",
  "Page.frameStartedLoading",
  "Page.frameAttached",
  "Page.frameScheduledNavigation",
  "Network.requestWillBeSent",
  "Network.requestServedFromCache",
  "Network.dataReceived",
  "Network.responseReceived",
  "Network.resourceChangedPriority",
  "Network.loadingFinished",
  "Network.loadingFailed",
  "Network.requestWillBeSentExtraInfo",
  "Network.responseReceivedExtraInfo",
] as const;

/** Clicks through the app as a user would, waiting for the page to show each result. */
async function drive(page: Page, journey: "full" | "bearer"): Promise<void> {
  const step = async (what: string, fn: () => Promise<unknown>) => {
    console.error(`- ${what}`);
    await fn();
    await page.waitForTimeout(150);
  };
  await step("open the app", () => page.goto(APP + "/", { waitUntil: "load" }));
  await page.waitForSelector("#login");
  await step("sign in", async () => {
    await page.fill("#u", "alice");
    await page.fill("#p", PASSWORD);
    await page.click("#signin");
    await page.waitForSelector("#newp");
  });
  await step("create a project", async () => {
    await page.fill("#pname", "Launch plan");
    await page.fill("#pdesc", "first draft");
    await page.click("#create");
    await page.waitForSelector("#ptitle");
  });
  await step("edit the description", async () => {
    await page.fill("#edesc", "second draft");
    await page.click("#save");
    await page.waitForFunction(`document.querySelector("#pdescv")?.textContent === "second draft"`);
  });
  for (const title of ["Write brief", "Review budget"]) {
    await step(`add task ${title}`, async () => {
      const n = await page.locator(".task").count();
      await page.fill("#ttitle", title);
      await page.click("#addt");
      await page.waitForFunction(`document.querySelectorAll(".task").length === ${n + 1}`);
    });
  }
  await step("complete the first task", async () => {
    await page.locator(".task").first().locator(".done").check();
    await page.waitForFunction(`document.querySelector(".task .done")?.checked === true`);
  });
  await step("delete the second task", async () => {
    await page.locator(".task").nth(1).locator(".del").click();
    await page.waitForFunction(`document.querySelectorAll(".task").length === 1`);
  });
  await step("export and wait", async () => {
    await page.click("#export");
    await page.waitForFunction(
      `/export ready/.test(document.querySelector("#dl")?.textContent ?? "")`,
      null,
      { timeout: 20_000 },
    );
  });
  await step("back to the list", async () => {
    await page.click("#back");
    await page.waitForSelector("#plist a");
    if (journey !== "full") return;
    // Account settings use the cookie session and a CSRF token.
    await page.click("#account");
    await page.waitForSelector("#savep");
    await page.check("#dark");
    await page.click("#savep");
    await page.waitForFunction(`document.querySelector("#saved")?.textContent === "saved"`);
    await page.click("#back");
    await page.waitForSelector("#plist a");
  });
  await step("open the project and delete it", async () => {
    await page.click("#plist a");
    await page.waitForSelector("#delp");
    await page.click("#delp");
    await page.waitForSelector("#newp");
  });
  await step("log out", async () => {
    await page.click("#logout");
    await page.waitForSelector("#login");
  });
  await page.waitForTimeout(500);
}

/** Records one journey on a fresh instance; writes the kept recordings. */
async function record(journey: (typeof JOURNEYS)[number]): Promise<void> {
  const server = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-net=127.0.0.1", "--allow-env", `${HERE}server.mjs`],
    env: { PORT: "8601", ANALYTICS_PORT: "8602", APP_PASSWORD: PASSWORD },
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
  const tmp = await Deno.makeTempDir({ prefix: "projectly-har-" });
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: ["--no-sandbox", "--host-resolver-rules=MAP metrics.tracker.test 127.0.0.1"],
    timeout: 30_000,
  });
  try {
    for (let i = 0; i < 100; i++) {
      if (await fetch(`${APP}/api/health`).then((r) => r.ok, () => false)) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const context = await browser.newContext({
      recordHar: { path: `${tmp}/pw.har`, content: "embed" },
    });
    context.setDefaultTimeout(10_000);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    const events: { method: string; params: Record<string, unknown> }[] = [];
    const responses = new Map<string, Record<string, unknown>>();
    const pending: Promise<void>[] = [];
    for (const method of EVENTS) {
      cdp.on(method, (params: Record<string, unknown>) => {
        events.push({ method, params });
        const id = params.requestId as string;
        if (method === "Network.responseReceived") {
          responses.set(id, params.response as Record<string, unknown>);
        }
        if (method === "Network.loadingFinished") {
          pending.push(
            cdp.send("Network.getResponseBody", { requestId: id }).then((b) => {
              const r = responses.get(id);
              if (r) r.body = b.base64Encoded ? atob(b.body) : b.body;
            }).catch(() => {}),
          );
        }
      });
    }
    await cdp.send("Page.enable");
    await cdp.send("Network.enable");
    await drive(page, journey.name);
    await Promise.all(pending);
    await context.close(); // writes the Playwright HAR
    const cdpHar = harFromMessages(events, { includeTextFromResponseBody: true });
    cdpHar.log.creator = { name: "chrome-har (CDP, DevTools-style)", version: "1.3.1" };
    if (journey.keep.includes("pw")) {
      await Deno.copyFile(`${tmp}/pw.har`, `${OUT}/${journey.name}.pw.har`);
    }
    if (journey.keep.includes("cdp")) {
      await Deno.writeTextFile(`${OUT}/${journey.name}.cdp.har`, JSON.stringify(cdpHar, null, 2));
    }
    console.error(`wrote ${journey.keep.map((k) => `${journey.name}.${k}.har`).join(", ")}`);
  } finally {
    await browser.close().catch(() => {});
    server.kill("SIGTERM");
    await server.status;
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }
}

for (const journey of JOURNEYS) await record(journey);
