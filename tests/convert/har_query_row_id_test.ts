/**
 * `convert har` on rows a server-rendered console hands out only in a save's redirect query,
 * as Cacti's does (docs/real-servers.md, its paragraph): the create's form post answers
 * `302 Location: item.php?header=false&action=edit&id=2`, and the journey then sends that `2`
 * to the same page as a query value (`action=ping&id=2`), as a field named for the page
 * (`item_id=2`), as the edit form's `id=2`, and inside a field NAME, the list's bulk action's
 * checkbox `chk_2=on`, whose confirmation page then writes the picked rows in a hidden
 * `selected_items` its post sends back. These were sent as recorded: right on a fresh console by luck, and on a
 * used one the second run edited and deleted the first run's row, already gone.
 *
 * The evidence (correlate/query_rows.ts): the number first appears in the `Location` query of
 * the answer to a post that did not send it, under `id`, and later requests to the same page
 * send it; a hidden field of the page a post of such names answered is the page's pick. The other side: `page=1`, `rows=10`, `tab=2` and the checkbox `chk_1` of a row the
 * console had before the journey (no save answered it) stay as recorded.
 *
 * The bulk post also sends the list page's CSRF token, base64 with `+`, `/` and `=` as Rails'
 * `authenticity_token` is: the post is a `form:` whose checkbox NAME is the template, so the
 * captured token is encoded when sent (in a text body beside the name it arrived broken).
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { formPost, pagesHar, type PageSpec, passesTwice } from "../support/form_pages.ts";

const ORIGIN = "http://127.0.0.1:3000";
const HTML = { "content-type": "text/html; charset=utf-8" };

/** The confirmation's list of the picked rows, PHP-serialized as Cacti writes it. */
const picked = (id: number) => `a:1:{i:0;s:${String(id).length}:"${id}";}`;
/** A list page's CSRF token: base64, so it holds `+`, `/` and `=`. */
const csrf = (n: number) => `${n}tok+en/x==`;
const tokenForm = (token: string) =>
  `<form><input type='hidden' name='csrf_token' value='${token}'></form>`;
const confirmation = (id: number) =>
  `<form><input type='hidden' name='selected_items' value='${picked(id)}'></form>`;

/** A page, or a redirect to the relative `location` as the console answers. */
const page = (status = 200, location?: string, body = "ok") =>
  new Response(`<html><body>${body}</body></html>`, {
    status,
    headers: { ...HTML, ...(location ? { location } : {}) },
  });

/**
 * A console whose ids keep counting across runs, with row 1 made before any journey. Each act
 * must be on the run's own newest row; the list's paging and the old row's checkbox as recorded.
 */
function console_() {
  let next = 2;
  let token = "";
  const rows = [1];
  const errors: string[] = [];
  const refuse = (what: string) => {
    errors.push(what);
    return page(404);
  };
  const own = (id: string | null) => id === String(rows.at(-1)) && rows.at(-1) !== 1;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const q = new URL(req.url).searchParams;
    if (req.method === "GET") {
      const action = q.get("action");
      if (action === null && q.has("page")) {
        const paged = q.get("page") === "1" && q.get("rows") === "10" && q.get("tab") === "2";
        token = csrf(Math.floor(Math.random() * 1e9));
        return paged ? page(200, undefined, tokenForm(token)) : refuse(`list ${q}`);
      }
      if (action === null) return page();
      if (action === "edit" && !q.has("id")) return page();
      const id = action === "get_node" ? q.get("item_id") : q.get("id");
      return action !== null && own(id) ? page() : refuse(`${action} ${id}`);
    }
    const form = new URLSearchParams(await req.text());
    if (form.get("action") === "save" && form.get("id") === "0") {
      rows.push(next++);
      return page(302, `item.php?header=false&action=edit&id=${rows.at(-1)}`);
    }
    if (form.get("action") === "save") {
      return own(form.get("id"))
        ? page(302, `item.php?header=false&action=edit&id=${form.get("id")}`)
        : refuse(`save ${form.get("id")}`);
    }
    if (form.has("selected_items")) {
      if (form.get("selected_items") !== picked(rows.at(-1)!)) {
        return refuse(`confirm ${form.get("selected_items")}`);
      }
      rows.pop();
      return page(302, "item.php?header=false");
    }
    const checked = [...form.keys()].filter((k) => k.startsWith("chk_")).sort().join();
    if (checked !== `chk_1,chk_${rows.at(-1)}` || !own(String(rows.at(-1)))) {
      return refuse(`bulk ${checked}`);
    }
    if (form.get("csrf_token") !== token) return refuse(`token ${form.get("csrf_token")}`);
    // The confirmation page writes which rows were picked; its post sends that back.
    return page(200, undefined, confirmation(rows.at(-1)!));
  });
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return { origin, errors, close: () => server.shutdown() };
}

/** The journey on a fresh console: add a row, look at it, rename it, list, bulk-delete it. */
function recording(): string {
  const save = (text: string, id: number): PageSpec => ({
    method: "POST",
    path: "/item.php?header=false",
    ...formPost(text),
    location: `/item.php?header=false&action=edit&id=${id}`,
  });
  const pages: PageSpec[] = [
    { method: "GET", path: "/item.php?action=edit" },
    save("name=Router&id=0&action=save", 2),
    { method: "GET", path: "/item.php?header=false&action=edit&id=2" },
    { method: "GET", path: "/item.php?action=ping&id=2" },
    { method: "GET", path: "/item.php?action=get_node&item_id=2" },
    save("name=Gateway&id=2&action=save", 2),
    { method: "GET", path: "/item.php?header=false&action=edit&id=2" },
    {
      method: "GET",
      path: "/item.php?page=1&rows=10&tab=2",
      text: `<html><body>${tokenForm(csrf(7))}</body></html>`,
    },
    {
      method: "POST",
      path: "/item.php?header=false",
      ...formPost(
        `chk_2=on&chk_1=on&csrf_token=${encodeURIComponent(csrf(7))}&drp_action=1&action=actions`,
      ),
      text: confirmation(2),
    },
    {
      method: "POST",
      path: "/item.php?header=false",
      ...formPost(`selected_items=${encodeURIComponent(picked(2))}&drp_action=1&action=actions`),
      location: "/item.php?header=false",
    },
    { method: "GET", path: "/item.php?header=false" },
  ];
  // The console's Location is relative to the page, as Cacti's is.
  const har = JSON.parse(pagesHar(ORIGIN, pages));
  for (const entry of har.log.entries) {
    for (const h of entry.response.headers) {
      if (h.name === "Location") h.value = h.value.slice(`${ORIGIN}/`.length);
    }
  }
  return JSON.stringify(har);
}

Deno.test("convert har: a small id a save's redirect named in its query is sent back to the same page as a query value, a field, a field named for the page and inside a checkbox's name; paging and an old row's checkbox stay; twice on one console", async () => {
  const app = console_();
  try {
    await passesTwice(recording(), app.origin, (flow) => {
      assert.match(flow, /page=1&rows=10&tab=2/, flow);
      assert.match(flow, /\bchk_1\b/, flow);
      assert.doesNotMatch(flow, /\bchk_2\b/, flow);
      // The bulk post is a form whose checkbox's name is the template, its token encoded when sent.
      // Read from the parsed flow: a pattern over its lines backtracked without end when no form matched.
      const forms = parse(flow).steps.map((s: { request: { form?: object } }) => s.request.form);
      const bulk = forms.find((f: object | undefined) => f && "csrf_token" in f);
      assert.ok(bulk, flow);
      const row = Object.keys(bulk).find((k) => /^chk_\$\{steps\.[\w.]+\}$/.test(k));
      assert.equal(row && bulk[row], "on", flow);
      assert.match(bulk.csrf_token, /^\$\{steps\.[\w.]+\}$/, flow);
    });
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
  }
});
