/**
 * `convert har` on a form create that answers 302 to the new row, as Rails
 * apps do (Redmine's `POST /projects/harbour-works/issues` → 302
 * `/issues/1`, tests/real/redmine_har_test.ts), then opens the row's edit
 * form (`/issues/1/edit`) and saves it (`POST /issues/1`). The redirect was
 * followed by its captured `Location`, but `/issues/1/edit` and the save
 * were sent as recorded: a small number is no id on its own, so on an
 * instance whose next issue is not 1 (a second run, any used instance) the
 * journey edited another issue, or none (404).
 *
 * What the converter does (correlate/location_ids.ts): a write answered 201
 * or a redirect names the row it made by its `Location`'s last segment, and
 * that number, however small, is captured where a later request sends it
 * right under the same collection (`/issues/<n>/…`), as a JSON create's is.
 * Widened: the same number sent elsewhere (a form's `tracker_id=1`) stays as
 * recorded; two runs on one instance edit the issue each run made.
 */
import assert from "node:assert/strict";
import { formPost, htmlPage, pagesHar, passesTwice } from "../support/form_pages.ts";

/** Issues numbered from `first`, each made by a form and edited by its own path. */
function issuesStandIn(first: number) {
  let next = first;
  const edited: number[] = [];
  const trackers: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const answer = (status: number, location?: string) =>
      htmlPage(url.origin, status, String(status), location);
    if (req.method === "POST" && url.pathname === "/projects/p/issues") {
      trackers.push(new URLSearchParams(await req.text()).get("issue[tracker_id]") ?? "");
      return answer(302, `/issues/${next++}`);
    }
    const m = /^\/issues\/(\d+)(\/edit)?$/.exec(url.pathname);
    if (!m || Number(m[1]) < first || Number(m[1]) >= next) return answer(404);
    if (req.method === "GET") return answer(200);
    if (req.method === "POST" && !m[2]) {
      edited.push(Number(m[1]));
      return answer(302, `/issues/${m[1]}`);
    }
    return answer(404);
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, edited, trackers, close: () => server.shutdown() };
}

const ORIGIN = "http://127.0.0.1:3000";

/** The journey on another instance, whose first issue was 1. */
function recording(): string {
  return pagesHar(
    ORIGIN,
    [
      {
        method: "POST",
        path: "/projects/p/issues",
        ...formPost("issue%5Btracker_id%5D=1&issue%5Bsubject%5D=Low"),
        location: "/issues/1",
      },
      { method: "GET", path: "/issues/1" },
      { method: "GET", path: "/issues/1/edit" },
      {
        method: "POST",
        path: "/issues/1",
        ...formPost("_method=patch&issue%5Bnotes%5D=Done"),
        location: "/issues/1",
      },
      { method: "GET", path: "/issues/1" },
    ].map((e) => ({ ...e, text: "<html><body></body></html>" })),
  );
}

Deno.test("convert har: the small id a create's redirect named is captured where later paths open that row, twice on one instance", async () => {
  const app = issuesStandIn(7);
  try {
    await passesTwice(recording(), app.origin, (flow) => {
      assert.doesNotMatch(flow, /url: \$\{vars\.base_url\}\/issues\/1/, flow);
      assert.match(flow, /"issue\[tracker_id\]": "1"/, flow);
    });
    assert.deepEqual(app.edited, [7, 8]);
    assert.deepEqual(app.trackers, ["1", "1"]);
  } finally {
    await app.close();
  }
});
