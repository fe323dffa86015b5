// A small single-page app + JSON API for recording real browser HARs.
// Two listeners on 127.0.0.1: the app (PORT) and a third-party-looking
// analytics collector (ANALYTICS_PORT). All state is in memory: a restart is
// a fresh instance (new signing key, new id offsets, no projects).
//
//   PORT=8601 ANALYTICS_PORT=8602 node server.mjs
//   APP_USER=alice APP_PASSWORD='Wonderland-2024!' (defaults)
//   ANALYTICS_ORIGIN  how the page reaches the collector (default http://metrics.tracker.test:ANALYTICS_PORT)
//   LOG=1             log every request on stderr
//
// Copied from the shared material's har-apps/projectly (flowrun's tests never read it);
// one change: GET /__stats also counts the requests the analytics collector
// received, so a test can show that a converted flow never calls it.
import http from "node:http";
import crypto from "node:crypto";

const PORT = Number(process.env.PORT ?? 8601);
const ANALYTICS_PORT = Number(process.env.ANALYTICS_PORT ?? 8602);
const ANALYTICS_ORIGIN = process.env.ANALYTICS_ORIGIN ??
  `http://metrics.tracker.test:${ANALYTICS_PORT}`;
const USER = process.env.APP_USER ?? "alice";
const PASSWORD = process.env.APP_PASSWORD ?? "Wonderland-2024!";
const LOG = process.env.LOG === "1";
const JOB_MS = Number(process.env.JOB_MS ?? 1500); // an export takes this long

// ---- per-instance state: nothing survives a restart
const signingKey = crypto.randomBytes(32);
let taskSeq = 1000 + crypto.randomInt(9000); // numeric ids, as from a DB that has rows already
const userId = 100 + crypto.randomInt(900);
const projects = new Map(); // id -> project
const tasks = new Map(); // id -> task
const jobs = new Map(); // id -> job
const sessions = new Map(); // sid -> { csrf, user }
const revoked = new Set();
const idempotency = new Map(); // key -> project id
const prefs = { theme: "light", email_notifications: true, language: "en" };
const avatars = new Map();
const stats = { requests: 0, byPath: {}, analytics: 0 };

const b64u = (b) => Buffer.from(b).toString("base64url");
function sign(payload) {
  const head = b64u(JSON.stringify({ alg: "HS256", typ: "JWT" }));
  const body = b64u(JSON.stringify(payload));
  const sig = b64u(crypto.createHmac("sha256", signingKey).update(`${head}.${body}`).digest());
  return `${head}.${body}.${sig}`;
}
function verify(token) {
  const [h, b, s] = String(token).split(".");
  if (!h || !b || !s) return undefined;
  const want = b64u(crypto.createHmac("sha256", signingKey).update(`${h}.${b}`).digest());
  if (want !== s || revoked.has(token)) return undefined;
  const p = JSON.parse(Buffer.from(b, "base64url").toString());
  return p.exp * 1000 > Date.now() ? p : undefined;
}
const now = () => new Date().toISOString();
const hex = (n) => crypto.randomBytes(n).toString("hex");

function send(res, status, body, headers = {}) {
  if (body === undefined) {
    res.writeHead(status, headers);
    return res.end();
  }
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, {
    "content-type": typeof body === "string"
      ? "text/plain; charset=utf-8"
      : "application/json; charset=utf-8",
    "cache-control": "no-store",
    "x-request-id": crypto.randomUUID(),
    ...headers,
  });
  res.end(text);
}
const problem = (res, status, title) => send(res, status, { error: title, status });

async function readBody(req) {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  return Buffer.concat(chunks);
}
function cookies(req) {
  const out = {};
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const i = part.indexOf("=");
    if (i > 0) out[part.slice(0, i).trim()] = part.slice(i + 1).trim();
  }
  return out;
}
function bearer(req) {
  const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "");
  return m ? verify(m[1]) : undefined;
}
function session(req) {
  return sessions.get(cookies(req).sid);
}
function login(username, password) {
  if (username !== USER || password !== PASSWORD) return undefined;
  const token = sign({
    sub: String(userId),
    name: USER,
    iat: Math.floor(Date.now() / 1000),
    exp: Math.floor(Date.now() / 1000) + 3600,
    jti: hex(8),
  });
  const sid = hex(16);
  sessions.set(sid, { csrf: b64u(crypto.randomBytes(24)), user: USER });
  return { token, sid };
}
function jobView(job) {
  const age = Date.now() - job.created;
  const status = age < JOB_MS * 0.3 ? "queued" : age < JOB_MS ? "running" : "done";
  const progress = status === "queued"
    ? 0
    : status === "running"
    ? Math.min(99, Math.round((age / JOB_MS) * 100))
    : 100;
  return {
    id: job.id,
    project_id: job.project_id,
    format: job.format,
    status,
    progress,
    created_at: new Date(job.created).toISOString(),
    ...(status === "done" ? { result_url: `/api/jobs/${job.id}/result`, rows: job.rows } : {}),
  };
}

// ---- the single-page app
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAKklEQVR4nGNkYPjPQApgIkn1qIZRDaMahqqG/wwM/xkZGf8zkAZGNQxTDQDvTwMfFXnU+AAAAABJRU5ErkJggg==",
  "base64",
);
const INDEX = `<!doctype html>
<html><head><meta charset="utf-8"><title>Projectly</title>
<link rel="stylesheet" href="/static/app.3f9c1e.css">
<link rel="icon" href="/favicon.ico">
<script async src="${ANALYTICS_ORIGIN}/t.js"></script>
</head><body>
<header><img src="/static/logo.png" alt="logo" width="16" height="16"> <b>Projectly</b> <span id="who"></span></header>
<main id="app">loading…</main>
<script src="/static/app.3f9c1e.js"></script>
</body></html>`;

const APP_CSS =
  `body{font-family:sans-serif;margin:1em}header{border-bottom:1px solid #ccc;padding:.5em}
button{margin:.2em}.task{margin:.2em 0}#progress{font-weight:bold}`;

// The SPA: plain fetch calls with a bearer token kept in memory.
const APP_JS = String.raw`
(() => {
  const $ = (s) => document.querySelector(s);
  const app = $("#app");
  let token = null;
  let current = null;
  const rid = () => crypto.randomUUID();
  async function api(method, path, body, extra = {}) {
    const headers = { accept: "application/json", "x-request-id": rid(), ...extra };
    if (token) headers.authorization = "Bearer " + token;
    if (body !== undefined && !(body instanceof FormData) && !(body instanceof URLSearchParams)) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(body);
    }
    const res = await fetch(path, { method, headers, body, credentials: "same-origin" });
    const text = await res.text();
    let data = null;
    try { data = text ? JSON.parse(text) : null; } catch { data = text; }
    if (!res.ok) throw new Error(method + " " + path + " -> " + res.status + " " + text);
    return data;
  }
  const track = (event, props) => window.tracker && window.tracker.track(event, props);
  function h(html) { app.innerHTML = html; }

  function loginView() {
    h('<h2>Sign in</h2><form id="login"><input id="u" placeholder="username"> <input id="p" type="password" placeholder="password"> <button id="signin">Sign in</button></form><p id="err"></p>');
    $("#login").onsubmit = async (e) => {
      e.preventDefault();
      try {
        const r = await api("POST", "/api/auth/login", { username: $("#u").value, password: $("#p").value });
        token = r.access_token;
        track("login", {});
        await projectsView();
      } catch (err) { $("#err").textContent = err.message; }
    };
  }
  async function projectsView() {
    const me = await api("GET", "/api/me");
    $("#who").textContent = me.username + " (" + me.role + ")";
    const list = await api("GET", "/api/projects?page=1&per_page=20");
    h('<h2>Projects</h2><ul id="plist">' + list.items.map((p) => '<li><a href="#" data-id="' + p.id + '">' + p.name + '</a></li>').join("") +
      '</ul><form id="newp"><input id="pname" placeholder="project name"> <input id="pdesc" placeholder="description"> <button id="create">Create project</button></form>' +
      '<p><button id="account">Account settings</button> <button id="logout">Log out</button></p>');
    $("#newp").onsubmit = async (e) => {
      e.preventDefault();
      const p = await api("POST", "/api/projects", { name: $("#pname").value, description: $("#pdesc").value, visibility: "private", tags: ["q3"] }, { "idempotency-key": rid() });
      track("project_created", { id: p.id });
      await projectView(p.id);
    };
    document.querySelectorAll("#plist a").forEach((a) => a.onclick = (e) => { e.preventDefault(); projectView(a.dataset.id); });
    $("#account").onclick = accountView;
    $("#logout").onclick = async () => { await api("POST", "/api/auth/logout"); token = null; loginView(); };
  }
  async function projectView(id) {
    const p = await api("GET", "/api/projects/" + id);
    current = p;
    const t = await api("GET", "/api/projects/" + id + "/tasks");
    h('<h2 id="ptitle">' + p.name + '</h2><p id="pdescv">' + p.description + '</p>' +
      '<form id="editp"><input id="edesc" value="' + p.description + '"> <button id="save">Save description</button></form>' +
      '<h3>Tasks</h3><div id="tasks">' + t.items.map((x) => '<div class="task" data-id="' + x.id + '"><label><input type="checkbox" class="done" ' + (x.done ? "checked" : "") + '> ' + x.title + '</label> <button class="del">delete</button></div>').join("") + '</div>' +
      '<form id="newt"><input id="ttitle" placeholder="task title"> <button id="addt">Add task</button></form>' +
      '<p><button id="export">Export CSV</button> <span id="progress"></span> <a id="dl"></a></p>' +
      '<p><button id="delp">Delete project</button> <button id="back">Back</button></p>');
    $("#editp").onsubmit = async (e) => { e.preventDefault(); await api("PATCH", "/api/projects/" + id, { description: $("#edesc").value }); await projectView(id); };
    $("#newt").onsubmit = async (e) => { e.preventDefault(); await api("POST", "/api/projects/" + id + "/tasks", { title: $("#ttitle").value, priority: "high", project_id: id }); track("task_added", {}); await projectView(id); };
    document.querySelectorAll(".task").forEach((el) => {
      el.querySelector(".done").onchange = async (e) => { await api("PATCH", "/api/projects/" + id + "/tasks/" + el.dataset.id, { done: e.target.checked }); await projectView(id); };
      el.querySelector(".del").onclick = async () => { await api("DELETE", "/api/projects/" + id + "/tasks/" + el.dataset.id); await projectView(id); };
    });
    $("#export").onclick = async () => {
      const job = await api("POST", "/api/projects/" + id + "/exports", { format: "csv" });
      let j = job;
      while (j.status !== "done") {
        $("#progress").textContent = j.status + " " + (j.progress ?? 0) + "%";
        await new Promise((r) => setTimeout(r, 300));
        j = await api("GET", "/api/jobs/" + job.job_id);
      }
      $("#progress").textContent = "done";
      const csv = await api("GET", j.result_url);
      $("#dl").textContent = "export ready (" + String(csv).split("\n").length + " lines)";
    };
    $("#delp").onclick = async () => { await api("DELETE", "/api/projects/" + id); await projectsView(); };
    $("#back").onclick = projectsView;
  }
  async function accountView() {
    // Account settings use the cookie session set at login plus a CSRF token.
    const c = await fetch("/api/session/csrf", { credentials: "same-origin", headers: { accept: "application/json" } }).then((r) => r.json());
    const cur = await fetch("/api/account/preferences", { credentials: "same-origin", headers: { accept: "application/json" } }).then((r) => r.json());
    h('<h2>Account</h2><label><input type="checkbox" id="dark" ' + (cur.theme === "dark" ? "checked" : "") + '> dark theme</label> <label><input type="checkbox" id="mail" ' + (cur.email_notifications ? "checked" : "") + '> e-mail notifications</label> <button id="savep">Save preferences</button> <span id="saved"></span> <button id="back">Back</button>');
    $("#savep").onclick = async () => {
      const r = await fetch("/api/account/preferences", { method: "PUT", credentials: "same-origin", headers: { "content-type": "application/json", accept: "application/json", "x-csrf-token": c.csrf_token }, body: JSON.stringify({ theme: $("#dark").checked ? "dark" : "light", email_notifications: $("#mail").checked, language: "en" }) });
      $("#saved").textContent = r.ok ? "saved" : "failed " + r.status;
    };
    $("#back").onclick = projectsView;
  }
  window.__app = { api, setToken: (t) => token = t, getToken: () => token };
  loginView();
})();
`;

// ---- analytics collector (the "third party")
const TRACKER_JS = String.raw`
(() => {
  const base = document.currentScript ? new URL(document.currentScript.src).origin : "";
  const anon = "anon_" + Math.random().toString(36).slice(2, 12);
  const send = (event, props) => fetch(base + "/v1/events", { method: "POST", mode: "cors", keepalive: true,
    headers: { "content-type": "application/json" }, body: JSON.stringify({ event, props, anon, ts: Date.now(), page: location.pathname }) }).catch(() => {});
  window.tracker = { track: send };
  send("page_view", {});
  navigator.sendBeacon(base + "/collect?v=1&tid=UA-000-1&cid=" + anon, "pv");
  new Image().src = base + "/p.gif?e=pv&cid=" + anon + "&r=" + Math.random();
})();
`;
const GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");

function analytics(req, res) {
  const url = new URL(req.url, "http://x");
  const cors = {
    "access-control-allow-origin": "*",
    "access-control-allow-headers": "content-type",
    "access-control-allow-methods": "POST, GET",
  };
  req.resume();
  stats.analytics++;
  if (req.method === "OPTIONS") return send(res, 204, undefined, cors);
  if (url.pathname === "/t.js") {
    return send(res, 200, TRACKER_JS, { "content-type": "text/javascript", ...cors });
  }
  if (url.pathname === "/p.gif") {
    res.writeHead(200, { "content-type": "image/gif", ...cors });
    return res.end(GIF);
  }
  if (url.pathname === "/collect") return send(res, 204, undefined, cors);
  if (url.pathname === "/v1/events") {
    return send(res, 200, { ok: true, received: Date.now() }, cors);
  }
  return problem(res, 404, "not found");
}

// ---- the API
async function api(req, res, url) {
  const path = url.pathname;
  const m = (re) => re.exec(path);
  const raw = await readBody(req);
  const ctype = (req.headers["content-type"] ?? "").split(";")[0].trim();
  let body;
  if (ctype === "application/json" && raw.length > 0) {
    try {
      body = JSON.parse(raw.toString());
    } catch {
      return problem(res, 400, "bad json");
    }
  } else if (ctype === "application/x-www-form-urlencoded") {
    body = Object.fromEntries(new URLSearchParams(raw.toString()));
  }

  if (req.method === "GET" && path === "/api/health") return send(res, 200, { ok: true });
  if (req.method === "GET" && path === "/__stats") return send(res, 200, stats);

  // login, JSON
  if (req.method === "POST" && path === "/api/auth/login") {
    const l = login(body?.username, body?.password);
    if (!l) return problem(res, 401, "bad credentials");
    return send(res, 200, {
      access_token: l.token,
      token_type: "Bearer",
      expires_in: 3600,
      user: { id: userId, username: USER },
    }, {
      "set-cookie": `sid=${l.sid}; Path=/; HttpOnly; SameSite=Lax`,
    });
  }
  // login, OAuth2 password grant, form-urlencoded
  if (req.method === "POST" && path === "/oauth/token") {
    if (body?.grant_type !== "password" || body?.client_id !== "projectly-web") {
      return problem(res, 400, "unsupported grant");
    }
    const l = login(body?.username, body?.password);
    if (!l) return problem(res, 401, "bad credentials");
    return send(res, 200, {
      access_token: l.token,
      token_type: "bearer",
      expires_in: 3600,
      refresh_token: hex(20),
      scope: "projects",
    });
  }
  // cookie session + CSRF
  if (req.method === "GET" && path === "/api/session/csrf") {
    const s = session(req);
    if (!s) return problem(res, 401, "no session");
    return send(res, 200, { csrf_token: s.csrf });
  }
  if (path === "/api/account/preferences") {
    const s = session(req);
    if (!s) return problem(res, 401, "no session");
    if (req.method === "GET") return send(res, 200, prefs);
    if (req.method === "PUT") {
      if (req.headers["x-csrf-token"] !== s.csrf) return problem(res, 403, "bad csrf token");
      Object.assign(prefs, body ?? {});
      return send(res, 200, { ...prefs, updated_at: now() });
    }
  }
  // redirect chain + conditional GET
  if (req.method === "GET" && path === "/api/reports/latest") {
    return send(res, 302, undefined, { location: "/api/reports/current" });
  }
  if (req.method === "GET" && path === "/api/reports/current") {
    return send(res, 301, undefined, { location: "/api/reports/r_2024q3" });
  }
  if (req.method === "GET" && path === "/api/reports/r_2024q3") {
    const etag = '"r2024q3-v1"';
    if (req.headers["if-none-match"] === etag) {
      return send(res, 304, undefined, { etag, "cache-control": "no-cache" });
    }
    return send(res, 200, { id: "r_2024q3", title: "Q3 report", status: "final", total: 42 }, {
      etag,
      "cache-control": "no-cache",
    });
  }
  // GraphQL (a fake: operationName picks the resolver)
  if (req.method === "POST" && path === "/graphql") {
    if (!bearer(req)) return send(res, 200, { errors: [{ message: "unauthenticated" }] });
    const op = body?.operationName;
    const v = body?.variables ?? {};
    if (op === "CreateProject") {
      const p = newProject(v.input?.name, v.input?.description);
      return send(res, 200, {
        data: { createProject: { project: { id: p.id, name: p.name, status: p.status } } },
      });
    }
    if (op === "GetProject") {
      const p = projects.get(v.id);
      return send(
        res,
        200,
        p
          ? { data: { project: { id: p.id, name: p.name, status: p.status, taskCount: 0 } } }
          : { data: { project: null }, errors: [{ message: "not found" }] },
      );
    }
    return send(res, 200, { errors: [{ message: "unknown operation " + op }] });
  }

  const who = bearer(req);
  if (!who) return problem(res, 401, "missing or invalid bearer token");

  if (req.method === "POST" && path === "/api/auth/logout") {
    revoked.add(/^Bearer\s+(\S+)$/i.exec(req.headers.authorization)[1]);
    return send(res, 204);
  }
  if (req.method === "GET" && path === "/api/me") {
    return send(res, 200, {
      id: userId,
      username: USER,
      email: `${USER}@example.test`,
      role: "owner",
      last_login: now(),
    });
  }
  if (req.method === "POST" && path === "/api/me/avatar") {
    if (ctype !== "multipart/form-data") return problem(res, 415, "multipart expected");
    const id = "av_" + hex(6);
    avatars.set(id, raw.length);
    return send(res, 201, { avatar_id: id, bytes: raw.length, url: `/api/me/avatar/${id}` });
  }
  if (req.method === "GET" && (m(/^\/api\/me\/avatar\/(av_[0-9a-f]+)$/))) {
    const id = m(/^\/api\/me\/avatar\/(av_[0-9a-f]+)$/)[1];
    return avatars.has(id)
      ? send(res, 200, { avatar_id: id, bytes: avatars.get(id) })
      : problem(res, 404, "no avatar");
  }
  if (req.method === "GET" && path === "/api/projects") {
    const items = [...projects.values()];
    return send(res, 200, {
      items,
      total: items.length,
      page: Number(url.searchParams.get("page") ?? 1),
    });
  }
  if (req.method === "POST" && path === "/api/projects") {
    const key = req.headers["idempotency-key"];
    if (key && idempotency.has(key)) return send(res, 200, projects.get(idempotency.get(key)));
    if (!body?.name) return problem(res, 422, "name required");
    if ([...projects.values()].some((p) => p.name === body.name)) {
      return problem(res, 409, "a project with this name exists");
    }
    const p = newProject(body.name, body.description, body.visibility, body.tags);
    if (key) idempotency.set(key, p.id);
    return send(res, 201, p, { location: `/api/projects/${p.id}` });
  }
  let g;
  if ((g = m(/^\/api\/projects\/([^/]+)$/))) {
    const p = projects.get(g[1]);
    if (!p) return problem(res, 404, "no such project");
    if (req.method === "GET") return send(res, 200, p);
    if (req.method === "PATCH") {
      Object.assign(p, { description: body?.description ?? p.description, updated_at: now() });
      return send(res, 200, p);
    }
    if (req.method === "DELETE") {
      projects.delete(p.id);
      return send(res, 204);
    }
  }
  if ((g = m(/^\/api\/projects\/([^/]+)\/tasks$/))) {
    const p = projects.get(g[1]);
    if (!p) return problem(res, 404, "no such project");
    if (req.method === "GET") {
      const items = [...tasks.values()].filter((t) => t.project_id === p.id);
      return send(res, 200, { items, total: items.length });
    }
    if (req.method === "POST") {
      if (body?.project_id !== undefined && body.project_id !== p.id) {
        return problem(res, 422, "project_id does not match the path");
      }
      const t = {
        id: taskSeq++,
        project_id: p.id,
        title: body?.title,
        priority: body?.priority ?? "normal",
        done: false,
        created_at: now(),
      };
      tasks.set(t.id, t);
      p.task_count++;
      return send(res, 201, t);
    }
  }
  if ((g = m(/^\/api\/projects\/([^/]+)\/tasks\/(\d+)$/))) {
    const t = tasks.get(Number(g[2]));
    if (!t || t.project_id !== g[1]) return problem(res, 404, "no such task");
    if (req.method === "PATCH") {
      Object.assign(t, { done: !!body?.done, updated_at: now() });
      return send(res, 200, t);
    }
    if (req.method === "DELETE") {
      tasks.delete(t.id);
      projects.get(g[1]).task_count--;
      return send(res, 204);
    }
  }
  if ((g = m(/^\/api\/projects\/([^/]+)\/exports$/)) && req.method === "POST") {
    const p = projects.get(g[1]);
    if (!p) return problem(res, 404, "no such project");
    const job = {
      id: crypto.randomUUID(),
      project_id: p.id,
      format: body?.format ?? "csv",
      created: Date.now(),
      rows: [...tasks.values()].filter((t) => t.project_id === p.id).length,
    };
    jobs.set(job.id, job);
    return send(res, 202, { job_id: job.id, status: "queued", progress: 0 }, {
      location: `/api/jobs/${job.id}`,
    });
  }
  if ((g = m(/^\/api\/jobs\/([0-9a-f-]{36})$/)) && req.method === "GET") {
    const job = jobs.get(g[1]);
    return job ? send(res, 200, jobView(job)) : problem(res, 404, "no such job");
  }
  if ((g = m(/^\/api\/jobs\/([0-9a-f-]{36})\/result$/)) && req.method === "GET") {
    const job = jobs.get(g[1]);
    if (!job) return problem(res, 404, "no such job");
    if (jobView(job).status !== "done") return problem(res, 409, "not ready");
    const rows = [...tasks.values()].filter((t) => t.project_id === job.project_id);
    return send(
      res,
      200,
      "id,title,done\n" + rows.map((t) => `${t.id},${t.title},${t.done}`).join("\n") + "\n",
      { "content-type": "text/csv; charset=utf-8" },
    );
  }
  if ((g = m(/^\/api\/projects\/([^/]+)\/history$/)) && req.method === "GET") {
    // a huge body (> 5 MB) for the converter's limits
    const n = Number(url.searchParams.get("n") ?? 60000);
    const events = Array.from(
      { length: n },
      (_, i) => ({
        seq: i,
        kind: i % 3 ? "edit" : "view",
        at: new Date(1_700_000_000_000 + i * 1000).toISOString(),
        by: USER,
        note: "x".repeat(40),
      }),
    );
    return send(res, 200, { project_id: g[1], events, total: n });
  }
  return problem(res, 404, "no route");
}

function newProject(name, description = "", visibility = "private", tags = []) {
  const p = {
    id: "prj_" + hex(5),
    name,
    description,
    visibility,
    tags,
    status: "active",
    owner_id: userId,
    task_count: 0,
    created_at: now(),
    updated_at: now(),
  };
  projects.set(p.id, p);
  return p;
}

const appServer = http.createServer(async (req, res) => {
  const url = new URL(req.url, `http://127.0.0.1:${PORT}`);
  stats.requests++;
  stats.byPath[`${req.method} ${url.pathname}`] =
    (stats.byPath[`${req.method} ${url.pathname}`] ?? 0) + 1;
  res.on("finish", () => LOG && console.error(`${req.method} ${req.url} -> ${res.statusCode}`));
  try {
    if (
      url.pathname.startsWith("/api/") || url.pathname === "/oauth/token" ||
      url.pathname === "/graphql" || url.pathname === "/__stats"
    ) return await api(req, res, url);
    req.resume();
    if (url.pathname === "/" || url.pathname === "/index.html") {
      return send(res, 200, INDEX, { "content-type": "text/html; charset=utf-8" });
    }
    if (url.pathname === "/static/app.3f9c1e.js") {
      return send(res, 200, APP_JS, {
        "content-type": "application/javascript",
        "cache-control": "max-age=3600",
      });
    }
    if (url.pathname === "/static/app.3f9c1e.css") {
      return send(res, 200, APP_CSS, {
        "content-type": "text/css",
        "cache-control": "max-age=3600",
      });
    }
    if (url.pathname === "/static/logo.png") {
      res.writeHead(200, { "content-type": "image/png", "cache-control": "max-age=3600" });
      return res.end(PNG);
    }
    if (url.pathname === "/favicon.ico") {
      res.writeHead(200, { "content-type": "image/x-icon" });
      return res.end(PNG);
    }
    return problem(res, 404, "not found");
  } catch (e) {
    console.error(e);
    return problem(res, 500, String(e));
  }
});
const analyticsServer = http.createServer(analytics);
appServer.listen(PORT, "127.0.0.1", () => console.error(`app on http://127.0.0.1:${PORT}`));
analyticsServer.listen(
  ANALYTICS_PORT,
  "127.0.0.1",
  () => console.error(`analytics on 127.0.0.1:${ANALYTICS_PORT} (page uses ${ANALYTICS_ORIGIN})`),
);
