/**
 * `convert har` on a page holding several forms, each with a CSRF token of
 * its own under the same field name, as Icinga Web 2's pages do
 * (tests/real/icingaweb2_har_test.ts): every page carries a hidden
 * auto-refresh form first, then the page's own form (its account page a
 * password form and a preferences form besides), each `CSRFToken` computed
 * for its form. The browser sends the token of the form it submitted, the
 * page's second or third input of that name; a capture takes the first
 * match, so the value was not found again in the page and the summary asked
 * the user for `NEW_DASHLET_CSRF_TOKEN` and `ACCOUNT_CSRF_TOKEN`.
 *
 * What the converter does (lib/convert/pages.ts): a value the page holds in
 * its k-th input of a name is read by a pattern that passes the k - 1
 * before it, the same place in a fresh copy of the page.
 */
import assert from "node:assert/strict";
import { pageValues } from "../../lib/convert/pages.ts";
import { formPost, htmlPage, pagesHar, passesTwice } from "../support/form_pages.ts";

/** A form named `uid` holding `token`. */
const form = (uid: string, token: string, fields = "") =>
  `<form method="post" action="/settings">${fields}<input type="hidden" name="formUID" value="${uid}">` +
  `<input type="hidden" name="CSRFToken" value="${token}" required></form>`;

/** The settings page: the refresh form, the password form, the preferences form, each its token. */
const settingsPage = (tokens: string[]) =>
  form("refresh", tokens[0]) + form("password", tokens[1], '<input type="password" name="old">') +
  form("preferences", tokens[2], '<input type="number" name="page_size" value="">');

/** A stand-in whose tokens each belong to one form of one page load. */
function standIn() {
  const handed = new Map<string, string>();
  const done = { saved: 0 };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method === "POST") {
      const sent = new URLSearchParams(await req.text());
      const token = sent.get("CSRFToken") ?? "";
      if (handed.get(token) !== sent.get("formUID")) return htmlPage(url.origin, 500, "bad token");
      done.saved++;
      return htmlPage(url.origin, 200, "saved");
    }
    const tokens = ["refresh", "password", "preferences"].map((uid) => {
      const token = `${Math.floor(Math.random() * 1e9)}|${crypto.randomUUID().replaceAll("-", "")}`;
      handed.set(token, uid);
      return token;
    });
    return htmlPage(url.origin, 200, settingsPage(tokens));
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, done, close: () => server.shutdown() };
}

const RECORDED = [
  "527569614|afd8730424b25f42f122509265dcee57",
  "534080890|c13a7b7479293702ca8bb1ac68c4bd29",
  "1691092272|38db3cf18f3c8a8a2f78f541a9cbda44",
];

Deno.test("convert har: the token of a page's third form of the same field name is read from that form, nothing asked, twice", async () => {
  const har = pagesHar("http://127.0.0.1:8300", [
    { method: "GET", path: "/settings", text: settingsPage(RECORDED) },
    {
      method: "POST",
      path: "/settings",
      text: "saved",
      ...formPost(
        `page_size=50&formUID=preferences&CSRFToken=${encodeURIComponent(RECORDED[2])}`,
      ),
    },
  ]);
  const app = standIn();
  try {
    await passesTwice(har, app.origin, (flow) => {
      assert.doesNotMatch(flow, /ENV\.(?!BASE_URL)/, flow);
      assert.match(flow, /CSRFToken: \$\{steps\.open_settings\.capture\.csrf_token\}/, flow);
    });
    assert.equal(app.done.saved, 2);
  } finally {
    await app.close();
  }
});

Deno.test("convert har: each input of a repeated name is found again at its place; the first keeps the plain pattern", () => {
  const html = settingsPage(RECORDED);
  const tokens = pageValues(html).filter((v) => v.name === "CSRFToken");
  assert.deepEqual(tokens.map((v) => v.value), RECORDED);
  assert.equal(tokens[0].pattern, '<input[^>]*\\bname="CSRFToken"[^>]*\\bvalue="([^"]*)"');
  const fresh = settingsPage(["1|aaaa1111bbbb", "2|cccc2222dddd", "3|eeee3333ffff"]);
  assert.deepEqual(tokens.map((v) => new RegExp(v.pattern).exec(fresh)?.[1]), [
    "1|aaaa1111bbbb",
    "2|cccc2222dddd",
    "3|eeee3333ffff",
  ]);
});
