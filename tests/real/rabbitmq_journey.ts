/**
 * The journey a new user takes through RabbitMQ's management UI, driven in
 * Chromium and recorded as HAR (tests/support/record_har.ts), both forms:
 * log in, add a virtual host, a queue and an exchange in it, bind the queue
 * to the exchange, publish a message to the exchange and get it from the
 * queue, add a user and give them permissions on the virtual host, then
 * delete the user, the exchange, the queue and the virtual host, and log
 * out. The UI is a hash-routed single-page app: each form is submitted by
 * its script as one JSON call under `/api/`, each deletion is confirmed in a
 * browser dialog, and the page refreshes its lists every few seconds, so
 * each step waits for its own answer and then for the page to settle.
 *
 * @module
 */
import type { Page } from "playwright-core";
import { answered, type Recordings, recordSession } from "../support/record_har.ts";
import { settle } from "../support/page_settle.ts";

/** What the journey makes (and deletes again). */
export const MADE = {
  vhost: "harbour",
  queue: "orders-intake",
  exchange: "orders",
  routingKey: "orders.new",
  payload: "crate 42 arrived",
  user: { username: "marina", password: "Tide-Lantern-58" },
} as const;

/** Opens the UI's route `hash` (`#/queues`), as its links do, and waits for its calls. */
async function open(page: Page, hash: string) {
  await settle(page, () => page.evaluate((h) => location.hash = h, hash));
}

/** Unfolds the section whose heading is `title` unless it is open (some start folded). */
async function unfold(page: Page, title: string) {
  const heading = page.locator(`h2:text-is("${title}")`).first();
  const body = page.locator(`div:has(> h2:text-is("${title}")) > div.hider`).first();
  if (!(await body.isVisible())) await heading.click();
  await body.waitFor({ state: "visible" });
}

/** Submits the form of `scope` with the submit button `value`, waiting for `method path`. */
async function submit(page: Page, scope: string, value: string, method: string, path: RegExp) {
  await settle(page, () =>
    answered(
      page,
      method,
      path,
      () => page.locator(`${scope} input[type="submit"][value="${value}"]`).first().click(),
    ));
}

async function logIn(page: Page, origin: string, login: { username: string; password: string }) {
  await settle(page, () => page.goto(`${origin}/`));
  await page.fill('form[action="#/login"] input[name="username"]', login.username);
  await page.fill('form[action="#/login"] input[name="password"]', login.password);
  await submit(page, 'form[action="#/login"]', "Login", "GET", /\/api\/whoami$/);
  await page.locator("#logout").waitFor();
}

async function makeThings(page: Page) {
  await open(page, "#/vhosts");
  await unfold(page, "Add a new virtual host");
  await page.fill('form[action="#/vhosts"] input[name="name"]', MADE.vhost);
  await submit(page, 'form[action="#/vhosts"]', "Add virtual host", "PUT", /\/api\/vhosts\//);

  await open(page, "#/queues");
  await unfold(page, "Add a new queue");
  const queueForm = 'form[action="#/queues"][method="put"]';
  await page.selectOption(`${queueForm} select[name="vhost"]`, MADE.vhost);
  await page.fill(`${queueForm} input[name="name"]`, MADE.queue);
  await submit(page, queueForm, "Add queue", "PUT", /\/api\/queues\//);

  await open(page, "#/exchanges");
  await unfold(page, "Add a new exchange");
  const exchangeForm = 'form[action="#/exchanges"][method="put"]';
  await page.selectOption(`${exchangeForm} select[name="vhost"]`, MADE.vhost);
  await page.fill(`${exchangeForm} input[name="name"]`, MADE.exchange);
  await submit(page, exchangeForm, "Add exchange", "PUT", /\/api\/exchanges\//);
}

async function bindPublishGet(page: Page) {
  await open(page, `#/exchanges/${MADE.vhost}/${MADE.exchange}`);
  await unfold(page, "Bindings");
  const bind = 'form[action="#/bindings"]';
  await page.fill(`${bind} input[name="destination"]`, MADE.queue);
  await page.fill(`${bind} input[name="routing_key"]`, MADE.routingKey);
  await submit(page, bind, "Bind", "POST", /\/api\/bindings\//);

  await unfold(page, "Publish message");
  const publish = 'form[action="#/exchanges/publish"]';
  await page.fill(`${publish} input[name="routing_key"]`, MADE.routingKey);
  await page.fill(`${publish} textarea[name="payload"]`, MADE.payload);
  await submit(page, publish, "Publish message", "POST", /\/publish$/);

  await open(page, `#/queues/${MADE.vhost}/${MADE.queue}`);
  await unfold(page, "Get messages");
  await submit(page, 'form[action="#/queues/get"]', "Get Message(s)", "POST", /\/get$/);
}

async function addUser(page: Page) {
  await open(page, "#/users");
  await unfold(page, "Add a user");
  const add = 'form[action="#/users-add"]';
  await page.fill(`${add} input[name="username"]`, MADE.user.username);
  await page.fill(`${add} input[name="password"]`, MADE.user.password);
  await page.fill(`${add} input[name="password_confirm"]`, MADE.user.password);
  await submit(page, add, "Add user", "PUT", /\/api\/users\//);

  await open(page, `#/users/${MADE.user.username}`);
  await unfold(page, "Permissions");
  const permit = 'form[action="#/permissions"][method="put"]';
  await page.selectOption(`${permit} select[name="vhost"]`, MADE.vhost);
  await submit(page, permit, "Set permission", "PUT", /\/api\/permissions\//);
}

/** Deletes what `hash`'s page shows by its button `value` (the browser's dialog accepted). */
async function remove(page: Page, hash: string, heading: string, value: string, path: RegExp) {
  await open(page, hash);
  await unfold(page, heading);
  await submit(page, 'form[method="delete"]', value, "DELETE", path);
}

/**
 * Records the journey on the node at `origin`, logging in as `login`.
 *
 * @example
 * ```ts ignore
 * import { recordJourney } from "./rabbitmq_journey.ts";
 * const { playwright } = await recordJourney("http://127.0.0.1:15672", { username: "a", password: "b" });
 * ```
 */
export async function recordJourney(
  origin: string,
  login: { username: string; password: string },
): Promise<Recordings> {
  return await recordSession(async (page) => {
    page.on("dialog", (dialog) => void dialog.accept());
    await logIn(page, origin, login);
    await makeThings(page);
    await bindPublishGet(page);
    await addUser(page);
    const user = `#/users/${MADE.user.username}`;
    await remove(page, user, "Delete this user", "Delete", /\/api\/users\//);
    const exchange = `#/exchanges/${MADE.vhost}/${MADE.exchange}`;
    await remove(page, exchange, "Delete this exchange", "Delete", /\/api\/exchanges\//);
    const queue = `#/queues/${MADE.vhost}/${MADE.queue}`;
    await remove(page, queue, "Delete", "Delete Queue", /\/api\/queues\//);
    const vhost = `#/vhosts/${MADE.vhost}`;
    await remove(page, vhost, "Delete this vhost", "Delete this virtual host", /\/api\/vhosts\//);
    await settle(page, () => page.locator('input[type="submit"][value="Log out"]').click());
    await page.locator('form[action="#/login"]').waitFor();
  }, 180_000);
}

/** What the page loads once and the converter drops: scripts, styles, images, fonts. */
const ASSET = /\.(js|css|png|gif|ico|svg|woff2?|ttf)$/;

/**
 * A recording made small for storing: the bodies of the page's static
 * assets (jQuery, its charts, the styles), which the converter drops, are
 * emptied; everything the API and the templates answered is kept.
 *
 * @example
 * ```ts
 * import { smallRecording } from "./rabbitmq_journey.ts";
 * const entry = (url: string) => ({ request: { url }, response: { content: { size: 4, text: "body" } } });
 * const har = JSON.stringify({ log: { entries: [entry("http://a.test/js/main.js"), entry("http://a.test/api/vhosts")] } });
 * const [js, api] = JSON.parse(smallRecording(har)).log.entries;
 * if (js.response.content.text !== "" || api.response.content.text !== "body") throw new Error();
 * ```
 */
export function smallRecording(har: string): string {
  const parsed = JSON.parse(har);
  for (const entry of parsed.log.entries) {
    if (!ASSET.test(new URL(entry.request.url).pathname)) continue;
    const content = entry.response.content;
    content.text = "";
    content.size = 0;
    delete content.encoding;
  }
  return JSON.stringify(parsed, null, 1);
}
