/**
 * `convert har` on an admin as WordPress's is (tests/real/wordpress_har_test.ts):
 * opening its editor makes the post (an auto-draft) and the page hands the
 * new id out in a hidden `post_ID`; the editor saves it through a REST API
 * whose route travels in a query value (`index.php?rest_route=%2Fapi%2Fposts%2F5`);
 * the posts list links each post's trash action with a nonce of that post
 * (`post.php?post=5&amp;action=trash&amp;_wpnonce=…`), after the toolbar's
 * log-out link with a nonce of its own (`&#038;_wpnonce=…`). Trashing and
 * logging out are links the user clicks: GET documents that answer 302.
 *
 * Recorded on WordPress 6.1, the conversion dropped both links as HTML
 * documents (a run trashed nothing and never logged out, yet passed), and
 * sent the recorded id 5 everywhere: a fresh instance made the same 5 by
 * chance, and a second run on it saved and opened the first run's post.
 *
 * What the converter does: a GET document that sends back a token a kept
 * page linked is an action and kept; a link's value that an earlier link of
 * the page shares the name of is read after the link's own path and
 * parameters; `&#038;` separates parameters as `&amp;` does; a number a
 * hidden input named for an id holds is the page's state, however small;
 * a path sent as a query value has its segments correlated as a URL's path,
 * and a JSON body's number (`{"id": 5}`, which WordPress reads before the
 * route's) is captured from the page that held it as text, its answer
 * checked by type.
 * Widened: the stand-in's ids start elsewhere on each instance, and a second
 * run on the same instance makes and trashes a post of its own.
 */
import assert from "node:assert/strict";
import { chromiumEntry } from "../support/chromium_entry.ts";
import { runCli } from "../support/cli.ts";

const RECORDED = "http://127.0.0.1:8282";
const HTML = "text/html; charset=UTF-8";

/** A nonce of the session for `action`. */
async function nonce(sid: string, action: string): Promise<string> {
  const bytes = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(`${action}-${sid}`));
  return [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("")
    .slice(0, 10);
}

/** What one instance holds: its sessions and each post's status by id. */
interface Admin {
  sids: Set<string>;
  posts: Map<number, string>;
  next: number;
}

const editorPage = async (sid: string, id: number) =>
  `<html><body><form><input type='hidden' id='user_ID' name='user_ID' value='1' />` +
  `<input type='hidden' id='post_ID' name='post_ID' value='${id}' /></form>` +
  `<script>var apiSettings = {"nonce":"${await nonce(sid, "rest")}"};</script></body></html>`;

/** The posts list: the toolbar's log-out link, then each post's trash link, newest first. */
async function listPage(admin: Admin, sid: string): Promise<string> {
  const rows = [];
  for (const [id, status] of [...admin.posts].reverse()) {
    if (status !== "publish") continue;
    rows.push(
      `<a href="/admin/post.php?post=${id}&amp;action=trash&amp;_wpnonce=${await nonce(
        sid,
        `trash-${id}`,
      )}">Trash</a>`,
    );
  }
  const logout = `<a href='/login.php?action=logout&#038;_wpnonce=${await nonce(sid, "logout")}'>`;
  return `<html><body>${logout}Log Out</a>${rows.join("")}</body></html>`;
}

/** A fresh instance's answer to one request. */
async function answer(admin: Admin, req: Request): Promise<Response> {
  const url = new URL(req.url);
  const q = url.searchParams;
  const sid = /sid=([\w-]+)/.exec(req.headers.get("cookie") ?? "")?.[1] ?? "";
  const html = (text: string) => new Response(text, { headers: { "content-type": HTML } });
  const moved = (to: string) => new Response(null, { status: 302, headers: { location: to } });
  if (url.pathname === "/admin/start.php") {
    const made = crypto.randomUUID();
    admin.sids.add(made);
    return new Response("<html><body>Dashboard</body></html>", {
      headers: { "content-type": HTML, "set-cookie": `sid=${made}; path=/` },
    });
  }
  if (!admin.sids.has(sid)) return new Response("-1", { status: 403 });
  if (url.pathname === "/admin/new.php") {
    const id = admin.next++;
    admin.posts.set(id, "auto-draft");
    return html(await editorPage(sid, id));
  }
  const route = /^\/api\/posts\/(\d+)$/.exec(q.get("rest_route") ?? "");
  if (route && req.method === "POST") {
    // The body's id before the route's, as WordPress reads a REST request's parameters.
    const body = await req.json();
    const id = Number(body.id ?? route[1]);
    if (req.headers.get("x-wp-nonce") !== await nonce(sid, "rest") || !admin.posts.has(id)) {
      return Response.json({ code: "rest_forbidden" }, { status: 403 });
    }
    admin.posts.set(id, "publish");
    return Response.json({ id, status: "publish", title: body.title });
  }
  if (url.pathname === "/admin/list.php") return html(await listPage(admin, sid));
  if (url.pathname === "/admin/post.php" && q.get("action") === "trash") {
    const id = Number(q.get("post"));
    const ok = admin.posts.get(id) === "publish" &&
      q.get("_wpnonce") === await nonce(sid, `trash-${id}`);
    if (!ok) return new Response("The link you followed has expired.", { status: 403 });
    admin.posts.set(id, "trash");
    return moved(`${url.origin}/admin/list.php?trashed=1&ids=${id}`);
  }
  if (url.pathname === "/login.php" && q.get("action") === "logout") {
    if (q.get("_wpnonce") !== await nonce(sid, "logout")) return new Response("", { status: 403 });
    admin.sids.delete(sid);
    return moved(`${url.origin}/login.php?loggedout=true`);
  }
  return html("<html><body>ok</body></html>");
}

/** One recorded exchange, Chromium's shape. */
function entry(
  i: number,
  method: string,
  path: string,
  res: { status?: number; mime?: string; text?: string; headers?: [string, string][] },
  req: { headers?: [string, string][]; json?: unknown; type?: string } = {},
) {
  return chromiumEntry(i, {
    method,
    url: `${RECORDED}${path}`,
    headers: req.headers ?? [],
    postData: req.json
      ? { mimeType: "application/json", text: JSON.stringify(req.json) }
      : undefined,
    status: res.status ?? 200,
    mime: res.mime ?? HTML,
    text: res.text ?? "",
    answered: res.headers,
    type: req.type ?? "document",
  });
}

/** The journey on an instance at 127.0.0.1:8282 whose editor made post 5. */
async function recording(): Promise<string> {
  const sid = "7c1d0b7e-3f0a-4c55-9a51-2b8e4f1d6a90";
  const cookie: [string, string] = ["Cookie", `sid=${sid}`];
  const admin: Admin = { sids: new Set([sid]), posts: new Map([[5, "publish"]]), next: 6 };
  const trashed = `${RECORDED}/admin/list.php?trashed=1&ids=5`;
  const entries = [
    entry(0, "GET", "/admin/start.php", {
      text: "<html><body>Dashboard</body></html>",
      headers: [["Set-Cookie", `sid=${sid}; path=/`]],
    }),
    entry(1, "GET", "/admin/new.php", { text: await editorPage(sid, 5) }, { headers: [cookie] }),
    entry(2, "POST", "/index.php?rest_route=%2Fapi%2Fposts%2F5&_locale=user", {
      mime: "application/json",
      text: JSON.stringify({ id: 5, status: "publish", title: "Harbour tides" }),
    }, {
      headers: [cookie, ["X-WP-Nonce", await nonce(sid, "rest")], [
        "Content-Type",
        "application/json",
      ]],
      json: { id: 5, title: "Harbour tides", status: "publish" },
      type: "fetch",
    }),
    entry(3, "GET", "/admin/list.php", { text: await listPage(admin, sid) }, { headers: [cookie] }),
    entry(4, "GET", `/admin/post.php?post=5&action=trash&_wpnonce=${await nonce(sid, "trash-5")}`, {
      status: 302,
      headers: [["Location", trashed]],
    }, { headers: [cookie] }),
    entry(5, "GET", "/admin/list.php?trashed=1&ids=5", { text: "<html><body>ok</body></html>" }, {
      headers: [cookie],
    }),
    entry(6, "GET", `/login.php?action=logout&_wpnonce=${await nonce(sid, "logout")}`, {
      status: 302,
      headers: [["Location", `${RECORDED}/login.php?loggedout=true`]],
    }, { headers: [cookie] }),
    entry(7, "GET", "/login.php?loggedout=true", { text: "<html><body>bye</body></html>" }),
  ];
  return JSON.stringify({ log: { version: "1.2", creator: { name: "stand-in" }, entries } });
}

Deno.test("convert har: an admin's trash and log-out links are steps, and the post its editor made is the run's own, twice on another instance", async () => {
  const dir = await Deno.makeTempDir();
  // Another instance: its ids start elsewhere, so the recorded 5 names nothing there.
  const admin: Admin = { sids: new Set(), posts: new Map([[1, "publish"]]), next: 20 };
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) => answer(admin, req),
  );
  try {
    await Deno.writeTextFile(`${dir}/admin.har`, await recording());
    const converted = await runCli(["convert", "har", `${dir}/admin.har`, "-o", `${dir}/a.yaml`]);
    assert.equal(converted.code, 0, converted.stderr);
    const flow = await Deno.readTextFile(`${dir}/a.yaml`);
    const env = { BASE_URL: `http://127.0.0.1:${server.addr.port}` };
    for (const n of [1, 2]) {
      const run = await runCli(["run", `${dir}/a.yaml`], { env });
      assert.equal(run.code, 0, `run ${n}\n${run.stdout}\n${flow}`);
      assert.match(run.stdout, /(\d+) steps: \1 passed/, run.stdout);
      // Each run trashed the post its editor made, and logged its session out.
      assert.deepEqual([...admin.posts.values()], ["publish", ...Array(n).fill("trash")], flow);
      assert.equal(admin.sids.size, 0, flow);
    }
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
