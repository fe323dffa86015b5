/**
 * `convert har` on a form whose select the page had already chosen, as
 * Postorius (Mailman 3's web UI, measured by hand in
 * docs/real-servers-har.md) offers it: its "new domain" form holds
 * `<select name="site"><option value="1" selected>example.com
 * (example.com)</option></select>`, the instance's current site, and the
 * save sends `site=1` as the page chose it. Creating the domain renames that
 * site after the domain ("Harbour office lists (harbour.example.test)"), so
 * the label is the instance's state, not the user's word: the recording
 * holds whatever name the site had then, a fresh instance another, and a
 * second run on one instance the name the first run gave it. The capture by
 * the option's label (correlate/labelled_ids.ts) matched nothing, and every
 * later step was skipped (4 of 31 steps passed).
 *
 * What the converter does: a number a form sends that its page's
 * single-choice select marked as its one selected option is captured from
 * that page as the selected option, whatever its label says; an option the
 * user chose (not the selected one, or in a `multiple` select) is still
 * captured by its label. Widened to the spellings of `selected`
 * (`selected`, `selected="selected"`, before or after `value`, either
 * quote).
 */
import assert from "node:assert/strict";
import { formPost, htmlPage, pagesHar, passesTwice } from "../support/form_pages.ts";
import { optionPattern } from "../../lib/convert/correlate/labelled_ids.ts";

/** How one producer spells the selected option `id` labelled `label`. */
type Spelling = (id: number, label: string) => string;

const SPELLINGS: Record<string, Spelling> = {
  "value then selected": (id, label) => `<option value="${id}" selected>${label}</option>`,
  "selected then value": (id, label) => `<option selected value="${id}">${label}</option>`,
  'selected="selected"': (id, label) =>
    `<option value='${id}' selected="selected">${label}</option>`,
};

/**
 * Sites (the current one is `current`, named `name`) and domains: the new
 * domain form preselects the current site; creating a domain renames it.
 */
function sitesStandIn(spell: Spelling, current: number, name: string) {
  let siteName = name;
  const made: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const page = (body: string) => htmlPage(url.origin, 200, body);
    if (url.pathname !== "/domains/new/") return page("<h1>Domains</h1>");
    if (req.method !== "POST") {
      const other = `<option value="${current + 1}">Archive (archive.test)</option>`;
      return page(
        `<form method="post"><input name="mail_host"><select name="site">${
          spell(current, siteName)
        }${other}</select></form>`,
      );
    }
    const form = new URLSearchParams(await req.text());
    if (form.get("site") !== String(current)) return page("Select a valid choice.");
    made.push(form.get("mail_host") ?? "");
    siteName = `Harbour lists (${form.get("mail_host")})`;
    return htmlPage(url.origin, 302, "", "/domains/");
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, made, close: () => server.shutdown() };
}

/** The journey on an instance whose current site was 1, renamed already. */
function recording(spell: Spelling): string {
  const form = `<form method="post"><input name="mail_host"><select name="site">${
    spell(1, "Harbour lists (old.example.test)")
  }<option value="2">Archive (archive.test)</option></select></form>`;
  return pagesHar("http://127.0.0.1:8000", [
    { method: "GET", path: "/domains/new/", text: form },
    {
      method: "POST",
      path: "/domains/new/",
      ...formPost("mail_host=harbour.example.test&site=1"),
      location: "/domains/",
    },
    { method: "GET", path: "/domains/", text: "<h1>Domains</h1>" },
  ]);
}

for (const [spelling, spell] of Object.entries(SPELLINGS)) {
  Deno.test(`convert har: a select's option the page chose (${spelling}) is captured as the selected one, whatever its label, twice on one instance`, async () => {
    const app = sitesStandIn(spell, 4, "example.com (example.com)");
    try {
      await passesTwice(recording(spell), app.origin, (flow) => {
        assert.doesNotMatch(flow, /site: "?1"?\n/, flow);
        assert.doesNotMatch(flow, /old\\\\?\.example/, flow);
      });
      assert.deepEqual(app.made, ["harbour.example.test", "harbour.example.test"]);
    } finally {
      await app.close();
    }
  });
}

Deno.test("convert har: an option the user chose, not the page's selected one, is still captured by its label", () => {
  const html = '<select name="t"><option value="1" selected>Other</option>' +
    '<option value="2">Harbour</option></select>';
  const pattern = optionPattern(html, "t", "2")!;
  assert.match(pattern, /Harbour/);
  const multiple = '<select name="t" multiple><option value="1">Other</option>' +
    '<option value="2" selected>Harbour</option></select>';
  assert.match(optionPattern(multiple, "t", "2")!, /Harbour/);
});
