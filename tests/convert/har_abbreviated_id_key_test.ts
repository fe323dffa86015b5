/**
 * `convert har` on a forum-like API whose answers name ids by their
 * collection's initial: creating a thread answers
 * `{"response": {"tid": 2, "mainPid": 2, "cid": 2, "postcount": 1}}`, a reply
 * `{"response": {"pid": 3, "tid": 2}}`, and the page then edits
 * `PUT /api/posts/2`, deletes `/api/posts/3/state` and `/api/threads/2/state`
 * (NodeBB 4.10's `tid`, `pid`, `mainPid`, by hand in
 * docs/real-servers-har.md). The numbers are small, so no evidence on their
 * own, and `tid` names no collection in full as `threadId` would
 * (`har_key_named_id_test.ts`); sent as recorded, a second run on one
 * instance deleted the first run's reply again and was refused. The key is
 * the evidence still: a key that is one letter and `id` (`tid`), or ends in a
 * capital letter and `id` (`mainPid`), is the id of the collection that
 * letter begins (`threads`, `posts`), taken right after that collection's
 * word only when no key spells the word in full; and a form field of that
 * very key (`tid=2`, a reply's fallback form) is the number the answer gave.
 */
import assert from "node:assert/strict";
import { convertHarFile, runCliTwice } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";

const API = "http://127.0.0.1:4242/api";

/** Threads and posts numbered per instance; a deleted one cannot be deleted again. */
function standIn() {
  const threads = new Map<number, number[]>();
  const posts = new Map<number, string>();
  let nextThread = 1, nextPost = 1;
  const ok = (response: unknown) => Response.json({ status: "ok", response });
  const refused = (why: string) => Response.json({ status: why }, { status: 400 });
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const path = new URL(req.url).pathname;
    if (req.method === "POST" && path === "/api/threads") {
      const tid = ++nextThread, pid = ++nextPost;
      threads.set(tid, [pid]);
      posts.set(pid, "live");
      return ok({ tid, mainPid: pid, cid: 2, postcount: 1, uid: 1 });
    }
    // A reply posted as a form, the thread named in a field (the page's fallback form).
    if (req.method === "POST" && path === "/compose") {
      const form = new URLSearchParams(await req.text());
      const tid = Number(form.get("tid"));
      if (!threads.has(tid) || posts.get(threads.get(tid)![0]) !== "live") {
        return refused(`no live thread ${tid}`);
      }
      const pid = ++nextPost;
      threads.get(tid)!.push(pid);
      posts.set(pid, "live");
      return ok({ pid, tid });
    }
    const thread = /^\/api\/threads\/(\d+)(\/state)?$/.exec(path);
    const tid = Number(thread?.[1]);
    if (thread && !threads.has(tid)) return refused(`no thread ${tid}`);
    if (req.method === "POST" && thread && !thread[2]) {
      const pid = ++nextPost;
      threads.get(tid)!.push(pid);
      posts.set(pid, "live");
      return ok({ pid, tid, postcount: 2 });
    }
    if (req.method === "DELETE" && thread?.[2]) {
      if (posts.get(threads.get(tid)![0]) === "gone") return refused("already deleted");
      posts.set(threads.get(tid)![0], "gone");
      return ok({});
    }
    const post = /^\/api\/posts\/(\d+)(\/state)?$/.exec(path);
    const pid = Number(post?.[1]);
    if (!post || posts.get(pid) !== "live") return refused(`no live post ${pid}`);
    if (req.method === "PUT" && !post[2]) return ok({ pid, edited: true });
    if (req.method === "DELETE" && post[2]) return posts.set(pid, "deleted"), ok({});
    return new Response(null, { status: 404 });
  });
}

Deno.test("convert har: a small id under a key of a collection's initial and `id` is read back, so a second run on the same instance passes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-abbreviated-id-" });
  const server = standIn();
  try {
    const har = harOf([
      {
        method: "POST",
        url: `${API}/threads`,
        body: '{"title":"Seeds","cid":2}',
        json: { status: "ok", response: { tid: 2, mainPid: 2, cid: 2, postcount: 1, uid: 1 } },
      },
      {
        method: "POST",
        url: `${API}/threads/2`,
        body: '{"content":"Basil"}',
        json: { status: "ok", response: { pid: 3, tid: 2, postcount: 2 } },
      },
      {
        method: "POST",
        url: `${API.replace(/\/api$/, "")}/compose`,
        mime: "application/x-www-form-urlencoded",
        headers: [["Content-Type", "application/x-www-form-urlencoded"]],
        body: "tid=2&content=Thyme",
        json: { status: "ok", response: { pid: 4, tid: 2 } },
      },
      {
        method: "PUT",
        url: `${API}/posts/2`,
        body: '{"content":"Seeds and bulbs"}',
        json: { status: "ok", response: { pid: 2, edited: true } },
      },
      { method: "DELETE", url: `${API}/posts/3/state`, json: { status: "ok", response: {} } },
      { method: "DELETE", url: `${API}/threads/2/state`, json: { status: "ok", response: {} } },
    ]);
    await Deno.writeTextFile(`${dir}/forum.har`, har);
    const flow = await convertHarFile(`${dir}/forum.har`, `${dir}/forum.yaml`);
    assert.doesNotMatch(flow, /url: \$\{vars\.base_url\}\/api\/(posts|threads)\/\d/, flow);
    assert.doesNotMatch(flow, /tid: "2"/, flow);
    const { port } = server.addr as Deno.NetAddr;
    await runCliTwice(`${dir}/forum.yaml`, `http://127.0.0.1:${port}`, flow);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
