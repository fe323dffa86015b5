/**
 * `convert har` on a small number that a create's own answer hands out as a hidden input of a
 * form, not in a table row. A hotel manager (HotelDruid 3.0.4, docs/real-servers-har.md) answers
 * a new client's form with a page saying "The data of client Bianchi have been inserted." inside
 * a form whose hidden `idclienti` holds 2, and its button posts that form back to edit the client.
 * The number was sent as recorded: right on a fresh instance, but a second run edited (and then
 * deleted) the first run's client while its own stayed. The evidence is the page, as for a row's
 * number: a browser sends the form's hidden fields as the page held them, and the form shows the
 * name the create sent, so the number is the journey's own row and is read from the page. The
 * stand-in numbers guests from a counter and answers an edit of an unknown guest with a 200 page.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { type EntrySpec, harOf } from "../support/har_records.ts";
import { convertHar } from "./har_convert.ts";

const AT = "http://127.0.0.1:8877";
const FORM = "application/x-www-form-urlencoded";

const page = (body: string) => `<html><body>${body}</body></html>`;

/** The create's answer: its text and the edit button in one form holding the guest's number. */
const savedPage = (name: string, guest: number) =>
  page(
    `<form method="post" action="/guest/edit"><div><input type="hidden" name="guest" ` +
      `value="${guest}">The data of guest ${name} have been saved. <button type="submit">` +
      `Edit guest ${guest}</button></div></form>`,
  );

/** The edit page: the number again in the form that changes the phone. */
const editPage = (guest: number) =>
  page(
    `<form method="post" action="/guest/edit"><input type="hidden" name="guest" value="${guest}">` +
      `<input type="hidden" name="save" value="1"><input name="phone"><button>Save</button></form>`,
  );

/** A guest book: a create numbers a guest from a counter; an edit changes a known guest's phone. */
function standIn() {
  const phones = new Map<number, string>();
  let next = 1;
  const html = (body: string) => new Response(body, { headers: { "content-type": "text/html" } });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const form = new URLSearchParams(req.method === "POST" ? await req.text() : "");
    if (req.method === "POST" && url.pathname === "/guests") {
      phones.set(next, "");
      return html(savedPage(form.get("name") ?? "", next++));
    }
    if (req.method === "POST" && url.pathname === "/guest/edit") {
      const guest = Number(form.get("guest"));
      // An unknown guest is refused on a page answered 200, as such apps do.
      if (!phones.has(guest)) return html(page(`No guest ${guest}.`));
      if (form.get("save") !== "1") return html(editPage(guest));
      phones.set(guest, form.get("phone") ?? "");
      return html(page(`The phone of guest ${guest} is now ${form.get("phone")}.`));
    }
    return html(page(`<form method="post" action="/guests"><input name="name"></form>`));
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, phones, close: () => server.shutdown() };
}

/** The journey on a fresh instance: add guest Ada Lovelace (1), open her edit page, save a phone. */
function journey(): string {
  const specs: EntrySpec[] = [
    {
      url: `${AT}/`,
      html: page(`<form method="post" action="/guests"><input name="name"></form>`),
    },
    {
      method: "POST",
      url: `${AT}/guests`,
      mime: FORM,
      body: "name=Ada+Lovelace",
      html: savedPage("Ada Lovelace", 1),
    },
    { method: "POST", url: `${AT}/guest/edit`, mime: FORM, body: "guest=1", html: editPage(1) },
    {
      method: "POST",
      url: `${AT}/guest/edit`,
      mime: FORM,
      body: "guest=1&save=1&phone=555-0100",
      html: page("The phone of guest 1 is now 555-0100."),
    },
  ];
  return harOf(specs);
}

Deno.test("convert har: a small number a create's answer held hidden in a form showing the created name is read from the page, and a second run edits its own guest", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-held-answer-" });
  const server = standIn();
  try {
    const { flow } = await convertHar(dir, journey());
    for (const run of [1, 2]) {
      const out = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: server.origin } });
      assert.equal(out.code, 0, `run ${run}\n${out.stdout}\n${flow}`);
      const want = run === 1 ? [[1, "555-0100"]] : [[1, "555-0100"], [2, "555-0100"]];
      assert.deepEqual([...server.phones], want, `run ${run}\n${flow}`);
    }
    // Read from the create's answer, where the browser read it.
    assert.match(flow, /guest: \$\{steps\.create_guest\.capture\.guest\}/, flow);
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
});
