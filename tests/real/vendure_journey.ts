/**
 * The journey a user takes through Vendure's admin UI (tests/real/vendure.ts), driven in
 * Chromium and recorded as HAR (tests/support/record_har.ts): log in, create a product with
 * one variant (SKU, price), rename it, create a facet, create a customer and edit the
 * customer's last name, delete the facet from its list (the bulk action and its confirmation),
 * log out. Every call is GraphQL `POST /admin-api`; the session token comes back in the
 * `vendure-auth-token` response header and goes out as `Authorization: Bearer`. Every wait is
 * bounded.
 *
 * Run as a script it records both forms on a fresh server and stores them in
 * tests/real/fixtures/vendure/ (`deno run -A tests/real/vendure_journey.ts`).
 *
 * @module
 */
import type { Page, Response } from "playwright-core";
import { type Recordings, recordSession, writeRecordings } from "../support/record_har.ts";
import { prepare } from "./servers.ts";
import { publicRecording } from "./unleash_journey.ts";
import { SUPERADMIN, VENDURE, withVendure } from "./vendure.ts";

/** What the user types. */
export const NAMES = {
  product: "Tide Clock",
  renamed: "Tide Clock, brass",
  sku: "TIDE-CLOCK-1",
  facet: "Material",
  customer: ["Ada", "Tidewell", "ada@example.com"],
  lastName: "Tidewell-Keel",
};

/** Runs `act` and waits for the admin API's answer to the operation named `operation`. */
async function graphql(page: Page, operation: string, act: () => Promise<unknown>) {
  const [response] = await Promise.all([
    page.waitForResponse(
      (r: Response) =>
        r.request().method() === "POST" && new URL(r.url()).pathname === "/admin-api" &&
        (r.request().postData() ?? "").includes(`"operationName":"${operation}"`),
      { timeout: 30_000 },
    ),
    act(),
  ]);
  const body = await response.json();
  if (response.status() >= 300 || body.errors) {
    throw new Error(`${operation}: ${response.status()} ${JSON.stringify(body).slice(0, 400)}`);
  }
  return body.data;
}

/** Clicks the page's primary button named `label` and waits for `operation`'s answer. */
function save(page: Page, label: string, operation: string) {
  return graphql(
    page,
    operation,
    () => page.locator("button.btn-primary", { hasText: label }).first().click(),
  );
}

/** Creates the product with its variant and renames it. */
async function product(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/admin/catalog/products/create`);
  await page.fill("#name", NAMES.product, { timeout: 30_000 });
  await page.fill("[formcontrolname=sku]", NAMES.sku);
  await page.locator("vdr-currency-input input").first().fill("24.50");
  await save(page, "Create", "CreateProduct");
  await page.waitForURL(/\/products\/\d+/, { timeout: 30_000 });
  await page.waitForLoadState("networkidle", { timeout: 30_000 });
  await page.fill("#name", NAMES.renamed, { timeout: 30_000 });
  await save(page, "Update", "UpdateProduct");
}

/** Creates the customer and edits the last name. */
async function customer(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/admin/customer/customers/create`);
  const [first, last, email] = NAMES.customer;
  await page.fill("#firstName", first, { timeout: 30_000 });
  await page.fill("#lastName", last);
  await page.fill("#emailAddress", email);
  await save(page, "Create", "CreateCustomer");
  await page.waitForURL(/\/customers\/\d+/, { timeout: 30_000 });
  await page.waitForLoadState("networkidle", { timeout: 30_000 });
  await page.fill("#lastName", NAMES.lastName, { timeout: 30_000 });
  await save(page, "Update", "UpdateCustomer");
}

/** Deletes the facet from its list: select its row, the bulk action, the confirmation. */
async function deleteFacet(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/admin/catalog/facets`);
  const row = page.locator("tr", { hasText: NAMES.facet }).first();
  await row.locator("input[type=checkbox]").check({ force: true, timeout: 30_000 });
  await page.locator("vdr-bulk-action-menu button").first().click({ timeout: 30_000 });
  // The menu opens in an overlay outside the list.
  await page.locator(".dropdown-item", { hasText: "Delete" }).first().click();
  const confirm = page.locator("vdr-modal-dialog button, .modal button", { hasText: "Delete" });
  await graphql(page, "DeleteFacets", () => confirm.last().click({ timeout: 30_000 }));
}

/**
 * Records the journey on the server at `origin`.
 *
 * @example
 * ```ts ignore
 * import { recordJourney } from "./vendure_journey.ts";
 * const { playwright } = await recordJourney("http://127.0.0.1:3000");
 * ```
 */
export async function recordJourney(origin: string): Promise<Recordings> {
  return await recordSession(async (page) => {
    await page.goto(`${origin}/admin/login`);
    await page.fill("#login_username", SUPERADMIN.username, { timeout: 30_000 });
    await page.fill("#login_password", SUPERADMIN.password);
    await graphql(page, "AttemptLogin", () => page.click("button.login-button"));
    await page.waitForURL((u) => !u.pathname.endsWith("/login"), { timeout: 30_000 });
    await page.waitForLoadState("networkidle", { timeout: 30_000 });
    await product(page, origin);
    await page.goto(`${origin}/admin/catalog/facets/create`);
    await page.fill("#name", NAMES.facet, { timeout: 30_000 });
    await save(page, "Create", "CreateFacet");
    await page.waitForURL(/\/facets\/\d+/, { timeout: 30_000 });
    await customer(page, origin);
    await deleteFacet(page, origin);
    await page.click(".user-menu-btn");
    await graphql(page, "LogOut", () => page.getByText("Log out").first().click());
    await page.waitForURL(/\/login/, { timeout: 30_000 });
  }, 240_000);
}

if (import.meta.main) {
  const origin = Deno.args[0];
  const record = async (o: string) => {
    const recorded = await recordJourney(o);
    await writeRecordings(new URL("./fixtures/vendure/", import.meta.url).pathname, "journey", {
      playwright: publicRecording(recorded.playwright),
      chromeHar: publicRecording(recorded.chromeHar),
    });
  };
  if (origin) await record(origin);
  else {
    const prepared = await prepare(VENDURE);
    if (prepared.ignoredBecause) throw new Error(prepared.ignoredBecause);
    await withVendure(prepared.install!.prefix, (s) => record(s.origin));
  }
}
