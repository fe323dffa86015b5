/**
 * `convert har` on a form create that answers 302 not to the new row but to
 * a page of it, as Django's admin does (`POST /admin/auth/user/add/` → 302
 * `/admin/auth/user/2/change/`, tests/real/django_har_test.ts), then opens
 * another page of the same row (`/admin/auth/user/2/delete/`) and posts its
 * form. The redirect was followed by its captured `Location`, but the
 * delete page and its post were sent as recorded: the id was not the
 * `Location`'s last segment, so the small number was no id, and on an
 * instance whose next row is not 2 (a second run) the journey deleted
 * another row, or none (404).
 *
 * What the converter does (correlate/location_ids.ts): a write answered 201
 * or a redirect names the row it made by the `Location`'s last number
 * segment right after a collection, whatever words follow it (`change`,
 * `edit`), and that number, however small, is captured where a later
 * request sends it right under the same collection. Widened: a number the
 * `Location` names under a collection that no later path uses stays.
 */
import assert from "node:assert/strict";
import { formPost, htmlPage, pagesHar, passesTwice } from "../support/form_pages.ts";

/** Rows numbered from `first`, each made by a form, opened and deleted by its own pages. */
function rowsStandIn(first: number) {
  let next = first;
  const deleted: number[] = [];
  const live = new Set<number>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    const answer = (status: number, location?: string) =>
      htmlPage(url.origin, status, String(status), location);
    if (url.pathname === "/admin/people/" || url.pathname === "/admin/people/add/") {
      if (req.method === "GET") return answer(200);
      live.add(next);
      return answer(302, `/admin/people/${next++}/change/`);
    }
    const m = /^\/admin\/people\/(\d+)\/(change|delete)\/$/.exec(url.pathname);
    if (!m || !live.has(Number(m[1]))) return answer(404);
    if (req.method === "GET") return answer(200);
    if (m[2] === "delete") {
      live.delete(Number(m[1]));
      deleted.push(Number(m[1]));
      return answer(302, "/admin/people/");
    }
    return answer(302, "/admin/people/");
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, deleted, close: () => server.shutdown() };
}

const ORIGIN = "http://127.0.0.1:8000";

/** The journey on another instance, whose new row was 2. */
function recording(): string {
  return pagesHar(
    ORIGIN,
    [
      { method: "GET", path: "/admin/people/add/" },
      {
        method: "POST",
        path: "/admin/people/add/",
        ...formPost("name=harbour&team=2"),
        location: "/admin/people/2/change/",
      },
      { method: "GET", path: "/admin/people/2/change/" },
      { method: "GET", path: "/admin/people/2/delete/" },
      {
        method: "POST",
        path: "/admin/people/2/delete/",
        ...formPost("post=yes"),
        location: "/admin/people/",
      },
      { method: "GET", path: "/admin/people/" },
    ].map((e) => ({ ...e, text: "<html><body></body></html>" })),
  );
}

Deno.test("convert har: the small id a create's redirect names before a page's word is captured where later paths open that row, twice on one instance", async () => {
  const app = rowsStandIn(5);
  try {
    await passesTwice(recording(), app.origin, (flow) => {
      assert.doesNotMatch(flow, /url: \$\{vars\.base_url\}\/admin\/people\/2\/delete/, flow);
      assert.match(flow, /team: "2"/, flow);
    });
    assert.deepEqual(app.deleted, [5, 6]);
  } finally {
    await app.close();
  }
});
