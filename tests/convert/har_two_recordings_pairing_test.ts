/**
 * `convert har a.har b.har` when a request of one shape is sent a different
 * number of times in the two sessions, as Directus's admin app tracks the
 * page the user is on (`PATCH /users/me/track/page` `{"last_page": …}`, 9
 * times in one recording of the journey and 8 in the other;
 * tests/real/directus_har_test.ts). The requests were paired by shape in
 * order, the first with the first, so the pages sent after the call only one
 * session made were compared with the next page of the other: "differs
 * between the two recordings", and `UPDATE_PAGE_2_LAST_PAGE` became a
 * variable in the flow's header. Among the pairings that pair as many
 * requests, the one that pairs requests sent alike (the same URL and body)
 * is taken. Widened to the class: pages that differ only in a run of
 * letters and digits (`/notes/a1`, `/notes/b2`), which a mispairing could
 * take for a value to make fresh, all sent as recorded; and the create
 * whose id really differs, still captured.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";
import { convertHars } from "./har_convert.ts";

/** A stand-in that knows the app's pages and makes notes; a page it does not know is refused. */
function standIn() {
  const pages = new Set(["/home", "/notes/a1", "/notes/b2", "/settings"]);
  const errors: string[] = [];
  let next = 50;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    const body = await req.json().catch(() => ({}));
    if (path === "/notes") return Response.json({ id: next++ });
    if (path.startsWith("/notes/")) return Response.json({ id: Number(path.slice(7)) });
    if (!pages.has(body.page)) {
      errors.push(`${path} ${JSON.stringify(body)}`);
      return Response.json({ error: "no such page" }, { status: 400 });
    }
    return new Response(null, { status: 204 });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, errors, close: () => server.shutdown() };
}

/** One session: the pages it tracked, in order, and the note it made (`id`). */
function session(pages: string[], id: number): string {
  const at = (path: string) => `http://127.0.0.1:8055${path}`;
  const track = (page: string) => ({
    method: "PATCH",
    url: at("/users/me/page"),
    body: JSON.stringify({ page }),
    status: 204,
  });
  return harOf([
    ...pages.slice(0, 2).map(track),
    { method: "POST", url: at("/notes"), body: "{}", json: { id } },
    ...pages.slice(2).map(track),
    { url: at(`/notes/${id}`), json: { id } },
  ]);
}

Deno.test("convert har with two recordings: requests of one shape sent a different number of times pair with the ones sent alike, so no page the other session tracked later is taken for a differing value, and the flow passes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-two-pairing-" });
  const app = standIn();
  try {
    // The first session tracked one page more (the home page, once more, before the settings).
    const { converted, flow } = await convertHars(dir, [
      session(["/home", "/notes/a1", "/notes/b2", "/home", "/settings"], 7),
      session(["/home", "/notes/a1", "/notes/b2", "/settings"], 9),
    ]);
    assert.match(converted.stderr, / 0 made fresh, 0 read from a variable[;.]/, converted.stderr);
    assert.doesNotMatch(flow, /ENV\.(?!BASE_URL)|RANDOM/, flow);
    assert.match(flow, /\/notes\/\$\{steps\.\w+\.capture\.\w+\}/, flow);
    const run = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: app.origin } });
    assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
    assert.deepEqual(app.errors, []);
  } finally {
    await app.close();
    await Deno.remove(dir, { recursive: true });
  }
});
