/**
 * `convert har` on a journey recorded in Chromium through Unleash's admin
 * UI (a React single-page app): sign in as the admin Unleash makes on its
 * first start (`admin`, the password its docs give), create a feature flag
 * in the default project, switch it on in `production` (the environment
 * the project enables; the UI asks to confirm), archive it. Recorded on a
 * fresh instance A (both HAR forms), converted with default options, and
 * run on a fresh instance B with its base URL and only the variables the
 * flow's header asks for (the password the user typed): every step must
 * pass on the first run.
 */
import assert from "node:assert/strict";
import { ignoreBrowser, whyBrowserIgnored } from "../support/browser.ts";
import { runCli } from "../support/cli.ts";
import { userEnv } from "../support/convert_apps.ts";
import { type Recordings, recordSession } from "../support/record_har.ts";
import { readReport } from "./measure.ts";
import { type Instance, prepare, start } from "./servers.ts";
import { postgresMissing, UNLEASH, withUnleash } from "./unleash.ts";

const postgres = postgresMissing();
const unleash = postgres ? { ignoredBecause: postgres } : await prepare([UNLEASH]);

/** The admin Unleash creates on its first start, as its docs give it. */
const ADMIN = { username: "admin", password: "unleash4all" };

/** The journey: sign in, create a flag, switch it on in production, archive it. */
function journey(a: Instance): Promise<Recordings> {
  return recordSession(async (page) => {
    await page.goto(`${a.origin}/login`);
    await page.fill("#username", ADMIN.username);
    await page.fill("#password", ADMIN.password);
    await page.click("[data-testid=LOGIN_BUTTON]");
    await page.waitForURL((u) => !u.pathname.startsWith("/login"), { timeout: 20_000 });
    await page.goto(`${a.origin}/projects/default`);
    await page.click("[data-testid=NAVIGATE_TO_CREATE_FEATURE]");
    await page.locator("input[type=text]:not([data-testid=SEARCH_INPUT])").first()
      .fill("checkout-redesign");
    await page.click("[data-testid=FORM_CREATE_BUTTON]");
    await page.waitForURL(/\/features\/checkout-redesign$/, { timeout: 20_000 });
    // The flag's page has loaded its environments once the switch shows; switching asks to confirm.
    const production = page.locator("input[type=checkbox][aria-label=production]");
    await production.waitFor({ state: "visible", timeout: 30_000 });
    await production.click();
    const confirm = page.locator("[data-testid=DIALOGUE_CONFIRM_ID]");
    await confirm.waitFor({ state: "visible", timeout: 30_000 });
    const [on] = await Promise.all([
      page.waitForResponse(
        (r) =>
          r.request().method() === "POST" && /environments\/production\/on(?:\?|$)/.test(r.url()),
        {
          timeout: 30_000,
        },
      ),
      confirm.click(),
    ]);
    assert.equal(on.status(), 200);
    await page.locator("[aria-label='Feature flag actions']").click();
    await page.locator("[role=menuitem]", { hasText: /archive/i }).first().click();
    const [archived] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === "DELETE", { timeout: 30_000 }),
      page.locator("[data-testid=DIALOGUE_CONFIRM_ID]").click(),
    ]);
    assert.equal(archived.status(), 202);
    // The UI goes back to the project's list once the flag is archived.
    await page.waitForTimeout(1_000);
  }, 150_000);
}

Deno.test({
  name:
    `real servers: a journey through Unleash's admin UI (sign in, create a flag, switch it on, archive it), recorded in Chromium, passes on a fresh instance${
      unleash.ignoredBecause || whyBrowserIgnored
    }`,
  ignore: unleash.ignoredBecause !== "" || ignoreBrowser,
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const prefix = unleash.install!.prefix;
    const dir = await Deno.makeTempDir({ prefix: "flowrun-real-unleash-har-" });
    try {
      const recorded = await withUnleash(prefix, start, (a) => journey(a));
      for (const [form, har] of [["pw", recorded.playwright], ["cdp", recorded.chromeHar]]) {
        const flowPath = `${dir}/${form}.yaml`;
        await Deno.writeTextFile(`${dir}/${form}.har`, har);
        const converted = await runCli(["convert", "har", `${dir}/${form}.har`, "-o", flowPath]);
        assert.equal(converted.code, 0, converted.stderr);
        const flow = await Deno.readTextFile(flowPath);
        await withUnleash(prefix, start, async (b) => {
          const env = userEnv(
            flow,
            b.origin,
            (name) => /PASSWORD/.test(name) ? ADMIN.password : undefined,
          );
          const report = `${flowPath}.json`;
          const done = await runCli(["run", flowPath, "--report-json", report], { env });
          const { steps } = await readReport(report);
          const failed = steps.filter((s) => s.status !== "passed");
          console.error(
            `Unleash admin UI (${form} HAR) on instance B: ${
              steps.length - failed.length
            } of ${steps.length} steps passed; asked for ${Object.keys(env).join(", ")}${
              failed.length
                ? `; failed: ${
                  failed.map((s) => `${s.name} (${s.message ?? s.status})`).join(", ")
                }`
                : ""
            }`,
          );
          const sent = steps.filter((s) => s.request)
            .map((s) => `${s.request!.method} ${new URL(s.request!.url).pathname}`);
          for (
            const step of [
              "POST /auth/simple/login",
              "POST /api/admin/projects/default/features",
              "POST /api/admin/projects/default/features/checkout-redesign/environments/production/on",
              "DELETE /api/admin/projects/default/features/checkout-redesign",
            ]
          ) assert.ok(sent.includes(step), `${step} not in\n${sent.join("\n")}`);
          assert.equal(done.code, 0, `${done.stdout}\n${flow}`);
          assert.equal(failed.length, 0);
          assert.ok(!flow.includes(ADMIN.password), "the password is no literal of the flow");
        });
      }
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
