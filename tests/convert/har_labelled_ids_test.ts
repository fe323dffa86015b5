/**
 * `convert har` on rows a page names only by their label, as Django's admin
 * does (tests/real/django_har_test.ts): a group added by a form answers 302
 * to the groups' list, not to the new row; the user's change page offers it
 * as `<option value="1">Harbour masters</option>` of `<select name="groups">`
 * and the save sends `groups=1`; the list links it as
 * `<a href="/admin/auth/group/1/change/">Harbour masters</a>`, whose change
 * page the journey opens and whose delete page it posts. Every id was sent
 * as recorded: on an instance where the new row is not 1 (a second run,
 * after the first deleted its group) the save chose another row, or none
 * (Django answers 200 with "Select a valid choice"), and the delete opened
 * another row (404).
 *
 * What the converter does (correlate/labelled_ids.ts): a number a form
 * sends under a field whose select, in the latest page that holds it, offers
 * it as an option with a label of words is captured from that page by the
 * label; a number in a path right after a collection (`/groups/1/…`) that
 * the latest page linked with a text of words
 * (`<a href="/groups/1/change/">Harbour masters</a>`) is captured from that
 * page by the link's text, and so are the later paths of that row. Widened:
 * a label two options share, or a number, is no label: the id stays as
 * recorded.
 */
import assert from "node:assert/strict";
import { htmlPage, pagesHar, passesTwice } from "../support/form_pages.ts";
import { optionPattern } from "../../lib/convert/correlate/labelled_ids.ts";

/** Teams (ids from `first`, beside a seeded "Other" = 1) chosen for a person, then deleted. */
function teamsStandIn(first: number) {
  let next = first;
  const teams = new Map<number, string>([[1, "Other"]]);
  const chosen: string[] = [];
  const deleted: number[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const page = (body: string) => htmlPage(url.origin, 200, body);
    const to = (location: string) => htmlPage(url.origin, 302, "", location);
    const form = req.method === "POST" ? new URLSearchParams(await req.text()) : undefined;
    const options = [...teams].map(([id, name]) => `<option value="${id}">${name}</option>`);
    const links = [...teams].map(([id, name]) => `<a href="/teams/${id}/change/">${name}</a>`);
    if (url.pathname === "/teams/add/") {
      if (!form) return page('<form method="post"><input name="name"></form>');
      teams.set(next++, form.get("name") ?? "");
      return to("/teams/");
    }
    if (url.pathname === "/teams/") return page(links.join(""));
    if (url.pathname === "/people/1/change/") {
      if (!form) return page(`<select name="teams" multiple>${options.join("")}</select>`);
      const team = teams.get(Number(form.get("teams")));
      if (team === undefined) return page("Select a valid choice.");
      chosen.push(team);
      return to("/teams/");
    }
    const m = /^\/teams\/(\d+)\/(change|delete)\/$/.exec(url.pathname);
    if (!m || !teams.has(Number(m[1]))) return htmlPage(url.origin, 404, "");
    if (!form) return page(`<a href="/teams/${m[1]}/delete/" class="deletelink">Delete</a>`);
    teams.delete(Number(m[1]));
    deleted.push(Number(m[1]));
    return to("/teams/");
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, chosen, deleted, close: () => server.shutdown() };
}

const FORM = { name: "Content-Type", value: "application/x-www-form-urlencoded" };

/** The journey on an instance whose new team was 2. */
function recording(): string {
  const post = (path: string, text: string, location: string) => ({
    method: "POST",
    path,
    headers: [FORM],
    postData: { mimeType: FORM.value, text },
    location,
    text: "",
  });
  const page = (path: string, text: string) => ({ method: "GET", path, text });
  const list = '<a href="/teams/1/change/">Other</a><a href="/teams/2/change/">Harbour</a>';
  return pagesHar("http://127.0.0.1:8000", [
    page("/teams/add/", '<form method="post"><input name="name"></form>'),
    post("/teams/add/", "name=Harbour", "/teams/"),
    page("/teams/", list),
    page(
      "/people/1/change/",
      '<select name="teams" multiple><option value="1">Other</option><option value="2">Harbour</option></select>',
    ),
    post("/people/1/change/", "teams=2", "/teams/"),
    page("/teams/", list),
    page("/teams/2/change/", '<a href="/teams/2/delete/" class="deletelink">Delete</a>'),
    page("/teams/2/delete/", '<form method="post"><input type="submit"></form>'),
    post("/teams/2/delete/", "post=yes", "/teams/"),
    page("/teams/", '<a href="/teams/1/change/">Other</a>'),
  ]);
}

Deno.test("convert har: a row a page names by an option's label and a link's text is captured by them, twice on one instance", async () => {
  const app = teamsStandIn(7);
  try {
    await passesTwice(recording(), app.origin, (flow) => {
      assert.doesNotMatch(flow, /teams: "2"/, flow);
      assert.doesNotMatch(flow, /url: .*\/teams\/2\//, flow);
    });
    assert.deepEqual(app.chosen, ["Harbour", "Harbour"]);
    assert.deepEqual(app.deleted, [7, 8]);
  } finally {
    await app.close();
  }
});

Deno.test("convert har: an option whose label another option shares, or is a number, is no label", () => {
  const shared =
    '<select name="t"><option value="1">Harbour</option><option value="2">Harbour</option></select>';
  assert.equal(optionPattern(shared, "t", "2"), undefined);
  const numbered =
    '<select name="t"><option value="1">1</option><option value="2">2</option></select>';
  assert.equal(optionPattern(numbered, "t", "2"), undefined);
  const named =
    '<select name="t"><option value="1">Other</option><option value="2" selected>Harbour</option></select>';
  const pattern = optionPattern(named, "t", "2")!;
  assert.equal(new RegExp(pattern).exec(named.replace('"2"', '"9"'))?.[1], "9");
});
