/**
 * `convert har` on a form whose visible text input has a credential's name: Zabbix's item form
 * (tests/real/zabbix.ts) has `<input type="text" name="key">`, the item's key the user types and
 * reads (`harbour.load`). The name is KEY's, so the summary asked for it as a secret
 * (`ITEMS_PHP_KEY`), though the page showed it in plain view and its shape is words.
 *
 * What the converter does (correlate/text_fields.ts): a field the recorded pages declare a visible
 * text input, sent with a value not shaped like a secret, is text the user typed: it goes as
 * recorded. A token pasted into such an input (secret-shaped) is still asked for, and a field a
 * page declares `type="password"` always is.
 */
import assert from "node:assert/strict";
import { formPost, htmlPage, pagesHar, passesTwice } from "../support/form_pages.ts";
import { runCli } from "../support/cli.ts";

const FORM = '<form method="post"><input type="text" id="name" name="name">' +
  '<input type="text" id="key" name="key" maxlength="2048"><input name="api_key"></form>';

/** An app that adds an item by a form: its name and its key. */
function itemsStandIn() {
  const keys: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method === "GET") return htmlPage(url.origin, 200, FORM);
    keys.push(new URLSearchParams(await req.text()).get("key") ?? "");
    return htmlPage(url.origin, 302, "", "/items/");
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, keys, close: () => server.shutdown() };
}

/** The journey: open the form, add the item with `fields`, see the list. */
function recording(fields: string): string {
  return pagesHar("http://127.0.0.1:8000", [
    { method: "GET", path: "/items/add/", text: `<html><body>${FORM}</body></html>` },
    { method: "POST", path: "/items/add/", ...formPost(fields), location: "/items/" },
    { method: "GET", path: "/items/" },
  ]);
}

Deno.test("convert har: words typed into a visible text input named like a credential go as recorded, twice", async () => {
  const app = itemsStandIn();
  try {
    await passesTwice(
      recording("name=Harbour+load&key=harbour.load"),
      app.origin,
      (flow, summary) => {
        assert.doesNotMatch(summary, /Set before running/, summary);
        assert.match(flow, /key: harbour\.load/, flow);
      },
    );
    assert.deepEqual(app.keys, ["harbour.load", "harbour.load"]);
  } finally {
    await app.close();
  }
});

Deno.test("convert har: a token pasted into a visible text input is still asked for", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const token = "sk_9f8e7d6c5b4a39281706f5e4d3c2b1a0";
    await Deno.writeTextFile(
      `${dir}/app.har`,
      recording(`name=Quay&key=harbour.load&api_key=${token}`),
    );
    const converted = await runCli(["convert", "har", `${dir}/app.har`, "-o", `${dir}/app.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    assert.match(converted.stderr, /Set before running: \w*API_KEY\./);
    assert.ok(!(await Deno.readTextFile(`${dir}/app.yaml`)).includes(token));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
