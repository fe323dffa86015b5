/**
 * `convert har` on a data page whose rows each carry a checkbox valued with
 * the row's key, as Adminer's are (tests/real/adminer_har_test.ts):
 * `<input type="checkbox" name="check[]" value="where%5Bid%5D=1">`, and the
 * row's edit link sends that key in its query. Every named input's value was
 * taken for a secret the page handed out, so the edit page's URL was cut
 * at it and the summary asked the user for `RECORDED_SECRET`.
 *
 * What the converter does (lib/convert/pages.ts): a checkbox's or a radio
 * button's value is a choice the page offers, no secret; the key stays in
 * the URL as the recording sent it.
 */
import assert from "node:assert/strict";
import { pageValues } from "../../lib/convert/pages.ts";
import { formPost, htmlPage, pagesHar, passesTwice } from "../support/form_pages.ts";

/** The data page: a row's checkbox and its edit link, both naming the row by its key. */
const page = '<form method="post"><input type="checkbox" name="check[]" value="where%5Bid%5D=1">' +
  '<a href="/index.php?edit=tides&amp;where%5Bid%5D=1">edit</a></form>';

Deno.test("convert har: a row's checkbox value is no secret; the edit link's key is kept, nothing asked, twice", async () => {
  const har = pagesHar("http://127.0.0.1:8300", [
    { method: "GET", path: "/index.php?select=tides", text: page },
    { method: "GET", path: "/index.php?edit=tides&where%5Bid%5D=1", text: "edit row 1" },
    {
      method: "POST",
      path: "/index.php?edit=tides&where%5Bid%5D=1",
      text: "saved",
      ...formPost("fields%5Bnote%5D=slack+water"),
    },
  ]);
  const edited: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    if (req.method === "POST") edited.push(url.searchParams.get("where[id]") ?? "");
    return htmlPage(url.origin, 200, url.searchParams.has("edit") ? "edit row 1" : page);
  });
  try {
    const origin = `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}`;
    await passesTwice(har, origin, (flow) => {
      assert.doesNotMatch(flow, /RECORDED_SECRET/, flow);
    });
    assert.deepEqual(edited, ["1", "1"]);
  } finally {
    await server.shutdown();
  }
});

Deno.test("convert har: checkbox and radio values are no secrets; a hidden token still is", () => {
  const html = page + '<input type="radio" name="pick" value="row-7f3a9c">' +
    '<input type="hidden" name="token" value="a81f9c33e2">';
  const found = pageValues(html).map((v) => `${v.name}:${v.secret}`);
  assert.deepEqual(found, ["check[]:false", "pick:false", "token:true"]);
});
