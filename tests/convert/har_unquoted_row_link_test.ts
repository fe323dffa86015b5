/**
 * `convert har` on a list a server-rendered ledger writes the old way (docs/real-servers-har.md,
 * SQL-Ledger): its links' `href` values unquoted (`<a href=ct.pl?action=edit&id=10069&db=card>`,
 * as HTML allows), the name the user typed padded by a non-breaking space (`Harbor Supplies&nbsp;`),
 * and the anchor sometimes never closed. The user adds a card, finds it in the list, opens its
 * link to edit it, saves, opens it again and deletes it. The row's number was sent as recorded: a
 * fresh instance numbers it the same, so the first run passed; a second run on the same instance
 * edited and deleted the first run's number (gone, answered 200 all the same) and left its own card
 * behind. The evidence is the one the quoted form already has (row_links.ts): the only row that
 * shows a text the journey typed links the page with the number. A non-breaking space is
 * whitespace to a reader, and an unquoted value ends at a space or `>`.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { type EntrySpec, harOf } from "../support/har_records.ts";
import { convertHar } from "./har_convert.ts";

const AT = "http://127.0.0.1:8872";
const NAME = "Harbor Supplies";

type Card = { id: number; name: string; city: string };

/** The list: a seeded card and the journey's, each name a link to its edit page. */
function listPage(cards: Card[], closed: boolean): string {
  const row = (c: Card) =>
    `<tr class=listrow1>\n<td><a href=ct.pl?action=edit&id=${c.id}&db=card&path=bin/cgi>` +
    `${c.name}&nbsp;${closed ? "</a>" : ""}</td>\n<td>${c.city}&nbsp;</td>\n</tr>`;
  return `<html><body><table><tr><th>Name</th><th>City</th></tr>\n${
    cards.map(row).join("\n")
  }</table></body></html>`;
}

/** A card's form: a new one's (id empty) or card `c`'s. */
const formPage = (c?: Card) =>
  `<html><body><form method=post action=ct.pl><input name=name value="${c?.name ?? ""}">` +
  `<input name=city value="${c?.city ?? ""}"><input type="hidden" name="id" value="${
    c?.id ?? ""
  }"><input type=submit name=action value="Save"><input type=submit name=action ` +
  `value="Delete"></form></body></html>`;

/** A ledger numbering its cards from a counter; a seeded card is the first. */
function standIn(closed: boolean) {
  const cards: Card[] = [{ id: 10001, name: "Quay Stores", city: "Faro" }];
  let next = 10002;
  const html = (body: string) => new Response(body, { headers: { "content-type": "text/html" } });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method === "GET") {
      const card = cards.find((c) => c.id === Number(url.searchParams.get("id")));
      return html(formPage(url.searchParams.get("action") === "edit" ? card : undefined));
    }
    const form = new URLSearchParams(await req.text());
    const at = cards.findIndex((c) => c.id === Number(form.get("id")));
    const action = form.get("action");
    if (action === "Delete" && at !== -1) cards.splice(at, 1);
    if (action === "Save" && at !== -1) cards[at].city = form.get("city") ?? "";
    if (action === "Save" && !form.get("id")) {
      cards.push({ id: next++, name: form.get("name") ?? "", city: form.get("city") ?? "" });
    }
    // An unknown number is answered like any other: the list, status 200.
    return html(action === "Save" && !form.get("id") ? formPage() : listPage(cards, closed));
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, cards, close: () => server.shutdown() };
}

/** The journey on a fresh ledger: add, list, edit, save, open again, delete. */
function journey(closed: boolean): string {
  const seeded = { id: 10001, name: "Quay Stores", city: "Faro" };
  const made = { id: 10002, name: NAME, city: "Lisbon" };
  const post = (fields: Record<string, string>, html: string): EntrySpec => ({
    method: "POST",
    url: `${AT}/ct.pl`,
    headers: [["Content-Type", "application/x-www-form-urlencoded"]],
    mime: "application/x-www-form-urlencoded",
    body: new URLSearchParams(fields).toString(),
    html,
  });
  const edit = `${AT}/ct.pl?action=edit&id=10002&db=card&path=bin/cgi`;
  return harOf([
    { url: `${AT}/ct.pl?action=add&db=card`, html: formPage() },
    post({ name: NAME, city: "Lisbon", id: "", action: "Save" }, formPage()),
    post({ action: "List" }, listPage([seeded, made], closed)),
    { url: edit, html: formPage(made) },
    post(
      { name: NAME, city: "Porto", id: "10002", action: "Save" },
      listPage([seeded, { ...made, city: "Porto" }], closed),
    ),
    { url: edit, html: formPage({ ...made, city: "Porto" }) },
    post({ name: NAME, city: "Porto", id: "10002", action: "Delete" }, listPage([seeded], closed)),
  ]);
}

for (const closed of [false, true]) {
  Deno.test(`convert har: a row number in an unquoted link beside a typed name padded by &nbsp; is read from that row (anchor ${closed ? "closed" : "left open"}), and a second run deletes its own row`, async () => {
    const dir = await Deno.makeTempDir({ prefix: "flowrun-har-unquoted-row-" });
    const server = standIn(closed);
    try {
      const { flow } = await convertHar(dir, journey(closed));
      for (const run of [1, 2]) {
        const out = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: server.origin } });
        assert.equal(out.code, 0, `run ${run}\n${out.stdout}\n${flow}`);
        assert.deepEqual(server.cards.map((c) => c.name), ["Quay Stores"], `run ${run}\n${flow}`);
      }
    } finally {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  });
}
