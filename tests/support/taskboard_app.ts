/**
 * Taskboard: a small but realistic single-page app for recording browser
 * sessions in tests, with a third-party analytics host beside it.
 *
 * - The page loads a JS bundle, a stylesheet, an image and the analytics SDK
 *   from another origin (same IP, another port), which sends JSON event
 *   batches with a write key (to a path no collector list knows), a beacon
 *   and a pixel.
 * - `POST /api/login` returns a signed JWT (HS256, a new key per instance)
 *   and sets an HttpOnly session cookie `sid` and a readable `XSRF-TOKEN`.
 * - Bearer CRUD: projects (`prj_…` ids, random per instance) created with an
 *   `Idempotency-Key`; tasks nested under a project (integer ids from a
 *   per-instance offset, each repeating its `project_id`) carrying a
 *   client-generated `client_ref`; tags listed in a per-instance order.
 * - An export job answered 202 that must be polled until `done`; its result
 *   holds an absolute download URL signed with `exp` and `sig`, which only
 *   works whole.
 * - Tasks are read with an `ETag` and completed with `If-Match` (428
 *   without, 412 when stale); attachments are uploaded as multipart.
 * - A GraphQL-style persisted GET (`variables=` percent-encoded JSON naming
 *   the project) lists tasks a page at a time with base64 cursors.
 * - The login form carries a hidden `next` path the login sends, and the
 *   page's script sets an anonymous `tb_anon` cookie every request carries.
 * - Account settings on the cookie session, guarded by the double-submit
 *   CSRF header `X-XSRF-TOKEN`.
 * - The page itself sets a visitor cookie and carries a CSRF token in a
 *   `<meta>` tag bound to it, which `POST /api/feedback` requires in
 *   `X-CSRF-Token` (the server-rendered pattern of Rails or Laravel).
 *
 * Every instance has new state, new keys and new id offsets, so a flow that
 * replays recorded values instead of carrying them fails against a fresh one.
 */

/** A running Taskboard and its analytics host. */
export interface Taskboard {
  /** The app's origin, e.g. `http://127.0.0.1:41234`. */
  origin: string;
  /** The analytics host's origin (same IP, another port). */
  analytics: string;
  /** The seeded user. */
  user: { email: string; password: string };
  /** What the app's API received, in order: `METHOD /path`. */
  calls: string[];
  /** Events the analytics host received. */
  events: number;
  close(): Promise<void>;
}

/** The seeded user's password: what a recording holds and a flow must never. */
export const PASSWORD = "Tb!pass-7Hq2x9Lm";
const EMAIL = "ann@taskboard.test";
const WRITE_KEY = "wk_live_3f9a1c7e5b2d4f60";

const hex = (n: number) =>
  [...crypto.getRandomValues(new Uint8Array(n))].map((b) => b.toString(16).padStart(2, "0"))
    .join("");

const b64url = (bytes: Uint8Array | string) =>
  btoa(typeof bytes === "string" ? bytes : String.fromCharCode(...bytes)).replace(/=+$/, "")
    .replaceAll("+", "-").replaceAll("/", "_");

function cookies(request: Request): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0) out.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return out;
}

const json = (status: number, body: unknown, headers: HeadersInit = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });

interface Task {
  id: number;
  project_id: string;
  title: string;
  done: boolean;
  client_ref: string;
}

/**
 * Starts a fresh Taskboard on 127.0.0.1, on ephemeral ports unless given
 * (the recorder, tests/apps/taskboard/record.ts, uses fixed ones so a new
 * recording differs from the stored one only where the session does).
 */
export async function startTaskboard(
  ports: { port?: number; analyticsPort?: number } = {},
): Promise<Taskboard> {
  const key = await crypto.subtle.importKey(
    "raw",
    crypto.getRandomValues(new Uint8Array(32)),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
  const taskOffset = 1000 + Math.floor(Math.random() * 90_000);
  const tags = ["Go", "Ruby", "Rust", "Python", "Elixir"]
    .map((name, i) => ({ id: taskOffset * 3 + i * 7, name }))
    .sort(() => Math.random() - 0.5);
  const projects = new Map<string, { id: string; name: string; description: string }>();
  const tasks = new Map<number, Task>();
  const projectTags = new Map<string, number[]>();
  const idempotent = new Map<string, Response>();
  const sessions = new Map<string, { xsrf: string; theme: string; name: string }>();
  const account = { theme: "light", name: "Ann" };
  const exports = new Map<string, { created: number; project: string }>();
  const visitors = new Map<string, string>();
  const etags = new Map<number, string>();
  const downloadKey = hex(16);
  const signDownload = async (path: string, exp: string) => {
    const k = await crypto.subtle.importKey(
      "raw",
      new TextEncoder().encode(downloadKey),
      { name: "HMAC", hash: "SHA-256" },
      false,
      ["sign"],
    );
    const mac = await crypto.subtle.sign("HMAC", k, new TextEncoder().encode(`${path}|${exp}`));
    return b64url(new Uint8Array(mac));
  };
  let nextTask = taskOffset;
  const calls: string[] = [];
  let events = 0;

  async function sign(sub: string): Promise<string> {
    const head = b64url(JSON.stringify({ alg: "HS256", typ: "JWT" }));
    const body = b64url(JSON.stringify({ sub, iat: Math.floor(Date.now() / 1000), jti: hex(8) }));
    const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${head}.${body}`));
    return `${head}.${body}.${b64url(new Uint8Array(mac))}`;
  }

  async function bearer(request: Request): Promise<boolean> {
    const m = /^Bearer (.+)\.(.+)\.(.+)$/.exec(request.headers.get("authorization") ?? "");
    if (!m) return false;
    const sig = Uint8Array.from(
      atob(m[3].replaceAll("-", "+").replaceAll("_", "/")),
      (c) => c.charCodeAt(0),
    );
    return await crypto.subtle.verify(
      "HMAC",
      key,
      sig,
      new TextEncoder().encode(`${m[1]}.${m[2]}`),
    );
  }

  const analyticsServer = Deno.serve({
    hostname: "127.0.0.1",
    port: ports.analyticsPort ?? 0,
    onListen() {},
  }, (req) => {
    const url = new URL(req.url);
    const cors = {
      "access-control-allow-origin": "*",
      "access-control-allow-headers": "content-type",
      "access-control-allow-methods": "POST, GET, OPTIONS",
    };
    if (req.method === "OPTIONS") return new Response(null, { status: 204, headers: cors });
    if (url.pathname === "/sdk.js") {
      return new Response(SDK.replaceAll("__ORIGIN__", url.origin), {
        headers: { "content-type": "text/javascript" },
      });
    }
    events++;
    // A path no list of collectors knows: the SDK's host is telemetry because it served the
    // page a script and never gets the app's credentials, not because of its paths.
    if (url.pathname === "/v2/ux") return json(200, { success: true }, cors);
    if (url.pathname === "/collect") return new Response(null, { status: 204, headers: cors });
    if (url.pathname === "/p.gif") {
      return new Response(PIXEL, { headers: { "content-type": "image/gif", ...cors } });
    }
    return new Response("not found", { status: 404 });
  });
  const analytics = `http://127.0.0.1:${analyticsServer.addr.port}`;

  const app = Deno.serve({
    hostname: "127.0.0.1",
    port: ports.port ?? 0,
    onListen() {},
  }, async (req) => {
    const url = new URL(req.url);
    const path = url.pathname;
    if (path.startsWith("/api/")) calls.push(`${req.method} ${path}`);
    if (path === "/") {
      const visitor = `v_${hex(10)}`;
      const csrf = hex(16);
      visitors.set(visitor, csrf);
      return new Response(
        PAGE.replaceAll("__ANALYTICS__", analytics).replace("__CSRF__", csrf),
        {
          headers: {
            "content-type": "text/html; charset=utf-8",
            "set-cookie": `tb_visitor=${visitor}; Path=/; HttpOnly; SameSite=Lax`,
          },
        },
      );
    }
    if (path === "/static/app.js") {
      return new Response(APP_JS, { headers: { "content-type": "text/javascript" } });
    }
    if (path === "/static/app.css") {
      return new Response(APP_CSS, { headers: { "content-type": "text/css" } });
    }
    if (path === "/static/logo.png" || path === "/favicon.ico") {
      return new Response(PIXEL, { headers: { "content-type": "image/gif" } });
    }
    // A signed download: the signature and expiry are checked, not the session.
    const dl = /^\/downloads\/([0-9a-f-]+)\.csv$/.exec(path);
    if (dl && req.method === "GET") {
      const exp = url.searchParams.get("exp") ?? "";
      if (url.searchParams.get("sig") !== await signDownload(path, exp)) {
        return json(403, { error: "bad_signature" });
      }
      return new Response("id,title\n", { headers: { "content-type": "text/csv" } });
    }
    if (path === "/api/login" && req.method === "POST") {
      const body = await req.json().catch(() => ({}));
      if (body.email !== EMAIL || body.password !== PASSWORD) {
        return json(401, { error: "invalid_credentials" });
      }
      if (typeof body.next !== "string" || !body.next.startsWith("/")) {
        return json(400, { error: "bad_next" });
      }
      const sid = `s_${hex(16)}`;
      const xsrf = hex(12);
      sessions.set(sid, { xsrf, ...account });
      const headers = new Headers({ "content-type": "application/json" });
      headers.append("set-cookie", `sid=${sid}; Path=/; HttpOnly; SameSite=Lax`);
      headers.append("set-cookie", `XSRF-TOKEN=${xsrf}; Path=/; SameSite=Lax`);
      return new Response(
        JSON.stringify({
          token: await sign("u_ann"),
          token_type: "Bearer",
          expires_in: 3600,
          user: { id: "u_ann", email: EMAIL, name: account.name },
        }),
        { headers },
      );
    }
    // Account settings: the cookie session, with the double-submit CSRF header on writes.
    if (path === "/api/account") {
      const session = sessions.get(cookies(req).get("sid") ?? "");
      if (!session) return json(401, { error: "no_session" });
      if (req.method === "GET") return json(200, { email: EMAIL, ...account });
      if (req.method === "PUT") {
        if (req.headers.get("x-xsrf-token") !== session.xsrf) {
          return json(403, { error: "csrf_mismatch" });
        }
        const body = await req.json();
        Object.assign(account, { theme: body.theme ?? account.theme });
        return json(200, { email: EMAIL, ...account, saved: true });
      }
    }
    if (!await bearer(req)) return json(401, { error: "unauthorized" });
    if (path === "/api/feedback" && req.method === "POST") {
      const csrf = visitors.get(cookies(req).get("tb_visitor") ?? "");
      if (!csrf || req.headers.get("x-csrf-token") !== csrf) {
        return json(403, { error: "csrf_mismatch" });
      }
      const body = await req.json();
      // A one-item list in a JSON body: chrome-har records it as its item.
      if (!Array.isArray(body.topics)) return json(422, { error: "topics_must_be_a_list" });
      return json(201, {
        id: `fb_${hex(5)}`,
        rating: body.rating,
        topics: body.topics,
        received: true,
      });
    }
    // The long-poll answers after 10 s; the page aborts it on logout, long before.
    if (path === "/api/notifications/wait") {
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, 10_000);
        req.signal.addEventListener("abort", () => resolve(clearTimeout(timer)));
      });
      return json(200, { items: [] });
    }
    if (path === "/api/me") return json(200, { id: "u_ann", email: EMAIL, name: account.name });
    if (path === "/api/logout") return new Response(null, { status: 204 });
    if (path === "/api/tags") return json(200, { items: tags });
    if (path === "/api/projects" && req.method === "GET") {
      return json(200, { items: [...projects.values()], total: projects.size });
    }
    if (path === "/api/projects" && req.method === "POST") {
      const idem = req.headers.get("idempotency-key") ?? "";
      if (!/^[0-9a-f-]{36}$/.test(idem)) return json(400, { error: "idempotency_key_required" });
      const cached = idempotent.get(idem);
      if (cached) return cached.clone();
      const body = await req.json();
      const project = {
        id: `prj_${hex(6)}`,
        name: String(body.name),
        description: String(body.description ?? ""),
      };
      projects.set(project.id, project);
      const response = json(201, { ...project, created_at: new Date().toISOString() });
      idempotent.set(idem, response.clone());
      return response;
    }
    let m = /^\/api\/projects\/([^/]+)(\/.*)?$/.exec(path);
    const project = m ? projects.get(m[1]) : undefined;
    if (m && !project) return json(404, { error: "no_such_project" });
    if (m && project) {
      const rest = m[2] ?? "";
      const own = [...tasks.values()].filter((t) => t.project_id === project.id);
      if (rest === "" && req.method === "GET") {
        return json(200, { ...project, task_count: own.length, tags: projectTags.get(project.id) });
      }
      if (rest === "/tasks" && req.method === "GET") return json(200, { items: own });
      if (rest === "/tasks" && req.method === "POST") {
        const body = await req.json();
        if (!/^[0-9a-f-]{36}$/.test(body.client_ref ?? "")) {
          return json(400, { error: "client_ref" });
        }
        if ([...tasks.values()].some((t) => t.client_ref === body.client_ref)) {
          return json(409, { error: "duplicate_client_ref" });
        }
        const task = {
          id: nextTask++,
          project_id: project.id,
          title: String(body.title),
          done: false,
          client_ref: body.client_ref,
        };
        tasks.set(task.id, task);
        return json(201, task);
      }
      const t = /^\/tasks\/(\d+)$/.exec(rest);
      const task = t ? tasks.get(Number(t[1])) : undefined;
      if (t && (!task || task.project_id !== project.id)) {
        return json(404, { error: "no_such_task" });
      }
      const etag = () => etags.get(task!.id) ?? etags.set(task!.id, `"${hex(6)}"`).get(task!.id)!;
      if (task && req.method === "GET") return json(200, task, { etag: etag() });
      if (task && req.method === "PATCH") {
        const ifMatch = req.headers.get("if-match");
        if (!ifMatch) return json(428, { error: "if_match_required" });
        if (ifMatch !== etag()) return json(412, { error: "stale_task" });
        Object.assign(task, { done: Boolean((await req.json()).done) });
        etags.set(task.id, `"${hex(6)}"`);
        return json(200, task, { etag: etag() });
      }
      if (rest === "/attachments" && req.method === "POST") {
        const form = await req.formData();
        const file = form.get("file");
        // Chromium keeps no part of an upload's body in a HAR: only the file is required.
        if (!(file instanceof File) || file.size === 0) {
          return json(422, { error: "file_required" });
        }
        return json(201, {
          id: `att_${hex(4)}`,
          filename: file.name,
          caption: form.get("caption") ?? "",
        });
      }
      if (rest === "/tags" && req.method === "POST") {
        const { tag_id } = await req.json();
        if (!tags.some((tag) => tag.id === tag_id)) return json(422, { error: "unknown_tag" });
        projectTags.set(project.id, [...projectTags.get(project.id) ?? [], tag_id]);
        return json(201, { project_id: project.id, tag_id });
      }
      if (rest === "/exports" && req.method === "POST") {
        const id = crypto.randomUUID();
        exports.set(id, { created: Date.now(), project: project.id });
        return json(202, { id, status: "queued" });
      }
    }
    m = /^\/api\/exports\/([^/]+)$/.exec(path);
    const job = m ? exports.get(m[1]) : undefined;
    if (m && job) {
      const age = Date.now() - job.created;
      const status = age < 200 ? "queued" : age < 600 ? "running" : "done";
      const file = `/downloads/${m[1]}.csv`;
      const exp = String(Math.floor(job.created / 1000) + 600);
      return json(200, {
        id: m[1],
        status,
        ...(status === "done"
          ? { url: `${url.origin}${file}?exp=${exp}&sig=${await signDownload(file, exp)}` }
          : {}),
      });
    }
    // A persisted GraphQL query over GET: variables as percent-encoded JSON, base64 cursors.
    if (path === "/api/graphql" && req.method === "GET") {
      let vars: { projectId?: string; first?: number; after?: string };
      try {
        vars = JSON.parse(url.searchParams.get("variables") ?? "{}");
      } catch {
        return json(400, { errors: [{ message: "variables are not JSON" }] });
      }
      const owned = [...tasks.values()].filter((t) => t.project_id === vars.projectId);
      if (!projects.has(vars.projectId ?? "")) {
        return json(200, { data: null, errors: [{ message: "no such project" }] });
      }
      let after = -1;
      if (vars.after !== undefined) {
        after = JSON.parse(atob(vars.after)).after;
        if (!tasks.has(after)) {
          return json(200, { data: null, errors: [{ message: "bad cursor" }] });
        }
      }
      const page = owned.filter((t) => t.id > after).slice(0, vars.first ?? 10);
      const last = page.at(-1);
      return json(200, {
        data: {
          tasks: {
            nodes: page.map((t) => ({ id: t.id, title: t.title })),
            pageInfo: { endCursor: last ? btoa(JSON.stringify({ after: last.id })) : null },
          },
        },
      });
    }
    return json(404, { error: "not_found" });
  });

  return {
    origin: `http://127.0.0.1:${app.addr.port}`,
    analytics,
    user: { email: EMAIL, password: PASSWORD },
    calls,
    get events() {
      return events;
    },
    async close() {
      await app.shutdown();
      await analyticsServer.shutdown();
    },
  };
}

/** A 1×1 GIF. */
const PIXEL = Uint8Array.from(
  atob("R0lGODlhAQABAIAAAAAAAP///ywAAAAAAQABAAACAUwAOw=="),
  (c) => c.charCodeAt(0),
);

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Taskboard – Projects</title>
<meta name="csrf-token" content="__CSRF__">
<link rel="stylesheet" href="/static/app.css">
<script src="__ANALYTICS__/sdk.js"></script>
</head><body>
<img src="/static/logo.png" alt="Taskboard">
<p id="status">Signed out</p>
<form id="login-form"><input type="hidden" id="next" name="next" value="/projects/overview">
<input id="email"><input id="password" type="password">
<button id="login" type="submit">Sign in</button></form>
<input id="project-name"><button id="create-project">Create project</button>
<input id="task-title"><button id="add-task">Add task</button>
<button id="complete-task">Complete task</button>
<button id="attach">Attach notes</button>
<button id="find-tasks">Find tasks</button>
<div id="tags"></div>
<button id="export">Export</button><p id="export-status"></p>
<button id="settings">Settings</button>
<select id="theme"><option>light</option><option>dark</option></select>
<button id="save-settings">Save settings</button>
<button id="send-feedback">Send feedback</button>
<button id="logout">Sign out</button>
<script src="/static/app.js"></script>
</body></html>`;

const APP_CSS = `body { font-family: sans-serif; } #status { font-weight: bold; }`;

/** The SPA: plain fetch calls, the way bundles make them. */
const APP_JS = `
const state = {};
const $ = (id) => document.getElementById(id);
const show = (text) => { $("status").textContent = text; };
const api = async (method, path, body, headers = {}) => {
  const h = { "accept": "application/json", "x-client-version": "1.4.2", ...headers };
  if (state.token) h.authorization = "Bearer " + state.token;
  if (body !== undefined) h["content-type"] = "application/json";
  const r = await fetch(path, { method, headers: h, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
};
document.cookie = "tb_anon=anon_" + Math.random().toString(16).slice(2, 10) + "; path=/";
const cookie = (name) => (document.cookie.split("; ").find((c) => c.startsWith(name + "=")) || "").slice(name.length + 1);
$("login-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const r = await api("POST", "/api/login", { email: $("email").value, password: $("password").value, next: $("next").value });
  state.token = r.body.token;
  window.analytics && analytics.track("signed_in");
  const me = await api("GET", "/api/me");
  const tags = await api("GET", "/api/tags");
  $("tags").innerHTML = "";
  for (const tag of tags.body.items) {
    const b = document.createElement("button");
    b.textContent = tag.name;
    b.onclick = async () => {
      await api("POST", "/api/projects/" + state.project + "/tags", { tag_id: tag.id });
      const p = await api("GET", "/api/projects/" + state.project);
      show("Tagged " + p.body.name + " with " + tag.name);
    };
    $("tags").append(b);
  }
  await api("GET", "/api/projects");
  // A long-poll for notifications, aborted on logout: recorded as a failed request.
  state.watch = new AbortController();
  fetch("/api/notifications/wait", { headers: { authorization: "Bearer " + state.token },
    signal: state.watch.signal }).catch(() => {});
  show("Signed in as " + me.body.name);
});
$("create-project").onclick = async () => {
  const r = await api("POST", "/api/projects", { name: $("project-name").value, description: "Q3 launch" },
    { "idempotency-key": crypto.randomUUID() });
  state.project = r.body.id;
  window.analytics && analytics.track("project_created");
  await api("GET", "/api/projects");
  show("Project " + r.body.name + " created");
};
$("add-task").onclick = async () => {
  const r = await api("POST", "/api/projects/" + state.project + "/tasks",
    { title: $("task-title").value, client_ref: crypto.randomUUID() });
  state.task = r.body.id;
  await api("GET", "/api/projects/" + state.project + "/tasks");
  show("Task " + r.body.title + " added");
};
$("complete-task").onclick = async () => {
  const path = "/api/projects/" + state.project + "/tasks/" + state.task;
  const read = await fetch(path, { headers: { accept: "application/json", authorization: "Bearer " + state.token } });
  const r = await api("PATCH", path, { done: true }, { "if-match": read.headers.get("etag") });
  show("Task done: " + r.body.done);
};
$("attach").onclick = async () => {
  const form = new FormData();
  form.append("caption", "Kickoff notes");
  form.append("file", new File(["agenda: launch"], "kickoff-notes.txt", { type: "text/plain" }));
  const r = await fetch("/api/projects/" + state.project + "/attachments",
    { method: "POST", headers: { authorization: "Bearer " + state.token }, body: form });
  const a = await r.json();
  show("Attached " + a.filename);
};
$("find-tasks").onclick = async () => {
  const q = (vars) => api("GET", "/api/graphql?operationName=ProjectTasks&variables=" +
    encodeURIComponent(JSON.stringify(vars)));
  const first = await q({ projectId: state.project, first: 1 });
  const cursor = first.body.data.tasks.pageInfo.endCursor;
  const next = await q({ projectId: state.project, first: 1, after: cursor });
  show("Found " + (first.body.data.tasks.nodes.length + next.body.data.tasks.nodes.length) + " tasks");
};
$("export").onclick = async () => {
  const r = await api("POST", "/api/projects/" + state.project + "/exports", {});
  $("export-status").textContent = r.body.status;
  for (let i = 0; i < 50; i++) {
    await new Promise((ok) => setTimeout(ok, 120));
    const p = await api("GET", "/api/exports/" + r.body.id);
    $("export-status").textContent = p.body.status;
    if (p.body.status === "done") {
      const file = await fetch(p.body.url);
      $("export-status").textContent = file.ok ? "done" : "download refused " + file.status;
      break;
    }
  }
  show("Export " + $("export-status").textContent);
};
$("settings").onclick = async () => {
  const r = await fetch("/api/account", { headers: { accept: "application/json" } });
  const a = await r.json();
  $("theme").value = a.theme;
  show("Settings for " + a.email);
};
$("save-settings").onclick = async () => {
  const r = await fetch("/api/account", { method: "PUT",
    headers: { "content-type": "application/json", "x-xsrf-token": cookie("XSRF-TOKEN") },
    body: JSON.stringify({ theme: $("theme").value }) });
  const a = await r.json();
  show(a.saved ? "Settings saved: " + a.theme : "Settings not saved: " + a.error);
};
$("send-feedback").onclick = async () => {
  const token = document.querySelector('meta[name="csrf-token"]').content;
  const r = await api("POST", "/api/feedback", { rating: 5, comment: "Nice", topics: ["ui"] }, { "x-csrf-token": token });
  show(r.body.received ? "Feedback sent" : "Feedback refused: " + r.body.error);
};
$("logout").onclick = async () => {
  state.watch && state.watch.abort();
  await api("POST", "/api/logout");
  state.token = undefined;
  show("Signed out");
};
`;

/** A third-party analytics SDK: event batches with a write key, a beacon, a pixel. */
const SDK = `
(() => {
  const origin = "__ORIGIN__";
  const queue = [];
  const flush = () => {
    if (queue.length === 0) return;
    const batch = queue.splice(0);
    fetch(origin + "/v2/ux", { method: "POST", credentials: "omit", keepalive: true,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ writeKey: "${WRITE_KEY}", batch, sentAt: new Date().toISOString(),
        messageId: crypto.randomUUID() }) });
  };
  window.analytics = { track(event) { queue.push({ event, ts: Date.now(), anonymousId: "anon_5c1e9b" }); flush(); } };
  window.analytics.track("page_view");
  new Image().src = origin + "/p.gif?ev=page_view&t=" + Date.now();
  addEventListener("visibilitychange", () => navigator.sendBeacon(origin + "/collect", JSON.stringify({ ev: "hidden" })));
  setTimeout(() => navigator.sendBeacon(origin + "/collect", JSON.stringify({ ev: "engaged", t: Date.now() })), 50);
})();
`;
