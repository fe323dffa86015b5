/**
 * `convert har` on an id a create answered that a later request sends
 * inside a longer value, as Ghost's admin does (tests/real/ghost_har_test.ts):
 * `POST /posts/` answers the new post's id, then the page reads
 * `GET /posts/?filter=id%3A<id>&limit=1` (Ghost's filter language). The
 * flow sent the recorded id inside the filter: a fresh instance answered an
 * empty list (200), so the step passed reading nothing; the stand-in here
 * refuses an unknown id.
 *
 * Evidence: the value a create's answer gave (an opaque id, not a number or
 * a word) stands whole inside the text, between characters that are no
 * letters or digits; it is taken from that answer there too. Widened to the
 * class: inside a filter, in a comma list of a query, inside a string of a
 * JSON body; text where the same characters are glued to other letters or
 * digits stays as recorded.
 */
import assert from "node:assert/strict";
import { convertHarThenRun } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";

/** A stand-in that makes a post of a fresh id and refuses any other id anywhere. */
function standIn() {
  const id = crypto.randomUUID().replaceAll("-", "").slice(0, 24);
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    if (req.method === "POST" && url.pathname === "/posts/") {
      return Response.json({ posts: [{ id, title: "Notes" }] }, { status: 201 });
    }
    const said = [
      url.searchParams.get("filter")?.replace(/^id:/, ""),
      ...(url.searchParams.get("ids")?.split(",") ?? []),
      req.method === "POST" ? (await req.json()).link?.split("/").pop() : undefined,
    ].filter((v) => v !== undefined);
    if (said.some((v) => v !== id)) {
      return Response.json({ errors: ["no such post"] }, { status: 404 });
    }
    return Response.json({ posts: [{ id, title: "Notes" }] });
  });
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}

const ID = "6b0896481159316e867f46f6";

function recording(): string {
  const at = "http://127.0.0.1:2368";
  const answer = { posts: [{ id: ID, title: "Notes" }] };
  return harOf([
    {
      method: "POST",
      url: `${at}/posts/`,
      body: '{"posts":[{"title":"Notes"}]}',
      status: 201,
      json: answer,
    },
    { url: `${at}/posts/?filter=id%3A${ID}&limit=1`, json: answer },
    { url: `${at}/posts/?ids=${ID},${ID}`, json: answer },
    {
      method: "POST",
      url: `${at}/links`,
      body: JSON.stringify({ link: `/p/${ID}` }),
      json: answer,
    },
    { url: `${at}/search?q=x${ID}y`, json: { posts: [] } },
  ]);
}

Deno.test("convert har: an id a create answered, sent inside a longer value (a filter, a comma list, a path in a body), is taken from that answer, and the flow passes on a fresh server", async () => {
  const { flow, run } = await convertHarThenRun(standIn, recording());
  const sent = flow.split("\n").filter((l) => !l.trimStart().startsWith("#")).join("\n");
  const ref = "${steps.create_post.capture.post_id}";
  assert.ok(
    /filter=id(:|%3A)\$\{steps\.create_post\.capture\.post_id\}&limit=1/.test(sent),
    flow,
  );
  assert.ok(sent.includes(`ids=${ref},${ref}`), flow);
  assert.ok(sent.includes(`link: /p/${ref}`), flow);
  // Glued to other letters, the same characters are another value.
  assert.ok(sent.includes(`q=x${ID}y`), flow);
  assert.equal(run.code, 0, `${run.stdout}\n${flow}`);
});
