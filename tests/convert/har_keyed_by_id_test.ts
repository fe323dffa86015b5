/**
 * `convert har` on an answer keyed by the ids a request sent, as Ghost's
 * admin has it (tests/real/ghost_har_test.ts): the posts list gives each
 * post's `id`, the page asks `POST /stats/posts-member-counts/` with
 * `{"postIds": [...]}`, and the answer is a map from each id to its counts.
 * The converter took every JSON key for a word of the API (api_words.ts),
 * so an id that was also a key was "the API's own name": never captured,
 * sent as recorded to a fresh instance that has other ids (Ghost answers
 * 200 with nothing for them; the stand-in here refuses them).
 *
 * Evidence, not the key's place: a key that some body holds as a value
 * under an id-like key (`id`, `post_id`), or that is a UUID, is data (a map
 * keyed by ids), not a name. Widened to the class: an id-keyed map in an
 * answer before the list and after it, UUID keys; a real word of the API
 * under an id-like key (`"key": "title"`) stays a word. (An id sent as a
 * key of a request body is not rewritten: body keys are sent as recorded.)
 */
import assert from "node:assert/strict";
import { convertHarThenRun } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";

/** A stand-in with ids of its own; counts are given only for ids it made. */
function standIn() {
  const post = crypto.randomUUID().replaceAll("-", "").slice(0, 24);
  const tag = crypto.randomUUID();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (url.pathname === "/posts") {
      return Response.json({ posts: [{ id: post, key: "title", tag_id: tag }] });
    }
    if (url.pathname === "/fields") return Response.json({ title: { type: "string" } });
    const { postIds, tag_id } = await req.json();
    const known = postIds.every((id: string) => id === post) && [undefined, tag].includes(tag_id);
    if (!known) return Response.json({ errors: ["no such post"] }, { status: 422 });
    const stats = [Object.fromEntries(postIds.map((id: string) => [id, 0]))];
    return Response.json({ stats, by_tag: { [tag]: 1 } });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

const POST = "6b0897551ab7c71d1ac4370a";
const TAG = "3d4b028a-19e8-43b7-8db0-44dbb0de0a66";

/** The counts asked twice, each answer keyed by the ids (a post's, a tag's UUID). */
function recording(): string {
  const at = "http://127.0.0.1:2368";
  const stats = (tags: boolean) => ({
    method: "POST",
    url: `${at}/stats`,
    body: JSON.stringify({ postIds: [POST], ...(tags ? { tag_id: TAG } : {}) }),
    json: { stats: [{ [POST]: 0 }], by_tag: { [TAG]: 1 } },
  });
  return harOf([
    { url: `${at}/posts`, json: { posts: [{ id: POST, key: "title", tag_id: TAG }] } },
    stats(false),
    { url: `${at}/posts?page=2`, json: { posts: [{ id: POST, key: "title", tag_id: TAG }] } },
    stats(true),
    { url: `${at}/fields?sort=title`, json: { title: { type: "string" } } },
  ]);
}

Deno.test("convert har: an id that an answer also uses as a key (a map keyed by ids) is captured where a request sends it, and the flow passes on a fresh server", async () => {
  const { flow, run } = await convertHarThenRun(standIn, recording());
  const sent = flow.split("\n").filter((l) => !l.trimStart().startsWith("#")).join("\n");
  assert.ok(!sent.includes(POST) && !sent.includes(TAG), flow);
  assert.match(sent, /tag_id: \$\{steps\.list_posts\.capture\.\w+\}/, flow);
  // A word the API uses under an id-like key is still a word, sent as recorded.
  assert.match(sent, /sort=title/, flow);
  assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
});
