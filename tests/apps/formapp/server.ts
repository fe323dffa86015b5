/**
 * Formapp: a server-rendered notes app with an HTML form login, the second
 * app shape `convert har` is proven on (see README.md beside this file).
 *
 * - `GET /login` renders a form with a hidden `authenticity_token` (one per
 *   session) and a hidden `next`, and sets a pre-login session cookie;
 *   `POST /login` (urlencoded) answers `303` to `/dashboard` and replaces the
 *   session cookie with a new one, plus a double-submit `fa_csrf` cookie.
 * - `GET /dashboard` carries `<meta name="csrf-token">`, an inline
 *   `<script type="application/json" id="config">` holding a per-session key,
 *   and the workspace id in a `data-workspace` attribute; its script calls
 *   the JSON API with `x-csrf-token` (equal to the `fa_csrf` cookie) and
 *   `x-session-key` headers.
 * - The API lists notes with opaque base64 cursors, creates, reads and
 *   updates them; a note is read with an `ETag` and updated with `If-Match`
 *   (`428` without, `412` when stale); a note takes an upload (multipart: a
 *   file and a caption); an export job, polled until done, hands out a
 *   download URL signed with a per-instance HMAC key (`?exp=…&sig=…`, `403`
 *   when anything in it changed); a long-poll for changes stays open until
 *   the page leaves. `POST /logout` is another form.
 * - A telemetry script comes from a second port (another host to the page)
 *   and posts JSON events there.
 *
 * State is in memory: every start is a fresh instance with a new secret, a new
 * workspace id and a new id offset.
 *
 * Run by hand: `deno run --allow-net tests/apps/formapp/server.ts --port 8701 --telemetry-port 8702`.
 *
 * @module
 */

/** The one user. */
export const EMAIL = "ann@formapp.test";
/** Her password: `&`, a space and `é` must survive form encoding. */
export const PASSWORD = "Tr0ub&dor 3é=!";

/** A running Formapp and its telemetry host. */
export interface Formapp {
  /** `http://127.0.0.1:PORT` of the app. */
  origin: string;
  /** `http://127.0.0.1:PORT` of the telemetry host. */
  telemetry: string;
  /** `METHOD /path` of every request the app answered, in order. */
  calls: string[];
  /** Events the telemetry host received. */
  events: number;
  /** Values a flow must never hold literally: this instance's ids and keys. */
  workspace: string;
  /** Uploads the app received: the note, the file's name, the caption and size. */
  attachments: { note: number; filename: string; caption: string; size: number }[];
  close(): Promise<void>;
}

interface Session {
  csrf: string;
  key: string;
  user?: string;
}

interface Note {
  id: number;
  title: string;
  body: string;
  updated_at: string;
}

interface Export {
  created: number;
  notes: number;
}

const SESSION = "_formapp_session";
const CSRF_COOKIE = "fa_csrf";

const hex = (bytes: number) =>
  [...crypto.getRandomValues(new Uint8Array(bytes))].map((b) => b.toString(16).padStart(2, "0"))
    .join("");
const token = () => btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(24))));

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function cookies(req: Request): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0) out.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return out;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", ...headers },
  });

const APP_JS = String.raw`
(() => {
  const config = JSON.parse(document.getElementById("config").textContent);
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const ws = document.getElementById("app").dataset.workspace;
  const $ = (s) => document.querySelector(s);
  const say = (text) => { $("#status").textContent = text; };
  let lastEtag = null;
  const api = async (method, path, body, extra = {}) => {
    const headers = { accept: "application/json", "x-csrf-token": csrf, "x-session-key": config.sessionKey, ...extra };
    if (body) headers["content-type"] = "application/json";
    const res = await fetch(path, { method, headers, body: body && JSON.stringify(body), credentials: "same-origin" });
    if (!res.ok) throw new Error(method + " " + path + " → " + res.status);
    lastEtag = res.headers.get("etag");
    return res.json();
  };
  let cursor = null;
  let created = [];
  const list = async (more) => {
    const q = "limit=" + config.pageSize + (more ? "&cursor=" + encodeURIComponent(cursor) : "");
    const page = await api("GET", "/api/workspaces/" + ws + "/notes?" + q);
    if (!more) $("#notes").textContent = "";
    for (const n of page.items) {
      const li = document.createElement("li");
      li.textContent = n.title;
      $("#notes").append(li);
    }
    cursor = page.next_cursor;
    return page.items.length;
  };
  $("#create").onclick = async () => {
    const note = await api("POST", "/api/workspaces/" + ws + "/notes", { title: $("#note-title").value, body: $("#note-body").value });
    created.push(note);
    window.telemetry?.send("note_created");
    say("Note " + note.title + " created");
  };
  $("#refresh").onclick = async () => say("Listed " + await list(false));
  $("#more").onclick = async () => say("Loaded " + await list(true) + " more");
  let etag = null;
  $("#open").onclick = async () => {
    const note = await api("GET", "/api/notes/" + created[0].id);
    etag = lastEtag;
    say("Opened " + note.title);
  };
  $("#rename").onclick = async () => {
    const note = await api("PATCH", "/api/notes/" + created[0].id, { title: $("#note-title").value }, { "if-match": etag });
    say("Renamed to " + note.title);
  };
  $("#attach").onclick = async () => {
    const form = new FormData();
    form.append("caption", "Itinerary, day by day");
    form.append("file", new File(["Day 1: Vieux Lyon\nDay 2: Croix-Rousse\n"], "lyon-itinerary.txt", { type: "text/plain" }));
    const res = await fetch("/api/notes/" + created[2].id + "/attachments", {
      method: "POST", body: form, credentials: "same-origin",
      headers: { accept: "application/json", "x-csrf-token": csrf, "x-session-key": config.sessionKey },
    });
    const a = await res.json();
    say(res.ok ? "Attached " + a.filename : "Upload refused: " + a.error);
  };
  $("#export").onclick = async () => {
    let job = await api("POST", "/api/workspaces/" + ws + "/exports", { format: "csv" });
    for (let i = 0; i < 40 && job.status !== "done"; i++) {
      await new Promise((ok) => setTimeout(ok, 150));
      job = await api("GET", "/api/exports/" + job.id);
    }
    const file = await fetch(job.download_url, { credentials: "same-origin" });
    say(file.ok ? "Exported " + (await file.text()).trim().split("\n").length + " lines" : "Download refused: " + file.status);
  };
  $("#watch").onclick = () => {
    // A long-poll the page leaves open: the sign-out navigation cuts it off.
    fetch("/api/workspaces/" + ws + "/changes?wait=30", {
      headers: { accept: "application/json", "x-csrf-token": csrf, "x-session-key": config.sessionKey },
      credentials: "same-origin",
    }).catch(() => {});
    say("Watching for changes");
  };
  list(false).then((n) => say("Ready, " + n + " notes"));
})();
`;

const TELEMETRY_JS = String.raw`
(() => {
  const origin = new URL(document.currentScript.src).origin;
  const visitor = "v." + Math.random().toString(36).slice(2, 14);
  const send = (name) => fetch(origin + "/v1/events", {
    method: "POST", keepalive: true, headers: { "content-type": "application/json" },
    body: JSON.stringify({ name, visitor, path: location.pathname, at: Date.now() }),
  }).catch(() => {});
  window.telemetry = { send };
  send("view");
})();
`;

/** The page around a body: the meta token, the app's assets and the telemetry script. */
function layout(title: string, csrf: string, telemetry: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="csrf-param" content="authenticity_token">
<meta name="csrf-token" content="${escapeHtml(csrf)}">
<title>${title} · Formapp</title>
<link rel="stylesheet" href="/assets/app.css">
<script src="${telemetry}/t.js" async></script>
</head>
<body>
${body}
</body>
</html>
`;
}

/** Starts Formapp and its telemetry host on 127.0.0.1 (port 0: any free port). */
export function startFormapp(options: { port?: number; telemetryPort?: number } = {}): Formapp {
  const secret = hex(16);
  const workspace = `ws_${hex(5)}`;
  let nextId = 1000 + Math.floor(Math.random() * 90_000);
  const sessions = new Map<string, Session>();
  const notes = new Map<number, Note>();
  const etags = new Map<number, string>();
  const exports = new Map<string, Export>();
  const attachments: { note: number; filename: string; caption: string; size: number }[] = [];
  const calls: string[] = [];
  // Signs download URLs: a per-instance key, so a recorded signature fails on a fresh instance.
  const downloadKey = crypto.subtle.importKey(
    "raw",
    crypto.getRandomValues(new Uint8Array(32)),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const signDownload = async (path: string, exp: string) => {
    const mac = await crypto.subtle.sign(
      "HMAC",
      await downloadKey,
      new TextEncoder().encode(`${path}?exp=${exp}`),
    );
    return [...new Uint8Array(mac)].map((b) => b.toString(16).padStart(2, "0")).join("");
  };
  const etagOf = (id: number) => etags.get(id) ?? etags.set(id, `"${hex(8)}"`).get(id)!;
  const quiet = { hostname: "127.0.0.1", onListen() {} };

  let events = 0;
  const cors = {
    "access-control-allow-origin": "*",
    "access-control-allow-headers": "content-type",
    "access-control-allow-methods": "POST",
  };
  const telemetryServer = Deno.serve(
    { ...quiet, port: options.telemetryPort ?? 0 },
    async (req) => {
      const path = new URL(req.url).pathname;
      await req.body?.cancel();
      if (req.method === "OPTIONS") return new Response(null, { status: 204, headers: cors });
      if (path === "/t.js") {
        return new Response(TELEMETRY_JS, {
          headers: { "content-type": "text/javascript", ...cors },
        });
      }
      if (path === "/v1/events" && req.method === "POST") {
        events++;
        return json(202, { accepted: 1, id: `ev_${hex(6)}` }, cors);
      }
      return new Response("not found", { status: 404, headers: cors });
    },
  );
  const telemetry = `http://127.0.0.1:${telemetryServer.addr.port}`;

  const newSession = (user?: string): [string, Session] => {
    const sid = `${hex(4)}--${hex(20)}`;
    const s = { csrf: token(), key: `sk_${hex(12)}`, user };
    sessions.set(sid, s);
    return [sid, s];
  };
  const sessionCookie = (sid: string) => `${SESSION}=${sid}; Path=/; HttpOnly; SameSite=Lax`;
  const redirect = (to: string, setCookies: string[] = [], status = 303) => {
    const headers = new Headers({ location: to, "content-type": "text/html; charset=utf-8" });
    for (const c of setCookies) headers.append("set-cookie", c);
    return new Response(`<a href="${to}">Redirecting</a>`, { status, headers });
  };
  const html = (text: string, status = 200, setCookies: string[] = []) => {
    const headers = new Headers({ "content-type": "text/html; charset=utf-8" });
    for (const c of setCookies) headers.append("set-cookie", c);
    return new Response(text, { status, headers });
  };
  // Opaque to the client: the workspace and the last id seen, signed with this instance's secret.
  const cursorFor = (after: number) => {
    const payload = JSON.stringify({ ws: workspace, after, sig: secret.slice(0, 8) });
    return btoa(payload);
  };
  const readCursor = (text: string): number | undefined => {
    try {
      const c = JSON.parse(atob(text));
      return c.ws === workspace && c.sig === secret.slice(0, 8) && typeof c.after === "number"
        ? c.after
        : undefined;
    } catch {
      return undefined;
    }
  };

  const loginPage = (s: Session, error = "") =>
    layout(
      "Sign in",
      s.csrf,
      telemetry,
      `<h1>Sign in</h1>
${error ? `<p class="error">${error}</p>` : ""}
<form action="/login" method="post" accept-charset="UTF-8">
  <input type="hidden" name="authenticity_token" value="${escapeHtml(s.csrf)}">
  <input type="hidden" name="next" value="/dashboard">
  <label>E-mail <input id="email" name="email" type="email"></label>
  <label>Password <input id="password" name="password" type="password"></label>
  <button id="login" type="submit">Sign in</button>
</form>`,
    );

  const dashboard = (s: Session) =>
    layout(
      "Notes",
      s.csrf,
      telemetry,
      `<script type="application/json" id="config">${
        JSON.stringify({ sessionKey: s.key, user: { name: "Ann" }, pageSize: 2 })
      }</script>
<main id="app" data-workspace="${workspace}">
  <h1>Notes</h1>
  <p id="status">Loading</p>
  <input id="note-title" placeholder="Title"> <textarea id="note-body"></textarea>
  <button id="create">Create</button> <button id="refresh">Refresh</button>
  <button id="more">More</button> <button id="open">Open first</button>
  <button id="rename">Rename first</button>
  <button id="attach">Attach itinerary</button> <button id="export">Export</button>
  <button id="watch">Watch</button>
  <ul id="notes"></ul>
  <form action="/logout" method="post">
    <input type="hidden" name="authenticity_token" value="${escapeHtml(s.csrf)}">
    <button id="logout" type="submit">Sign out</button>
  </form>
</main>
<script src="/assets/app.js"></script>`,
    );

  async function api(req: Request, path: string): Promise<Response> {
    let m: RegExpExecArray | null;
    if ((m = /^\/api\/workspaces\/([^/]+)\/notes$/.exec(path))) {
      if (m[1] !== workspace) return json(404, { error: "no such workspace" });
      if (req.method === "GET") {
        const url = new URL(req.url);
        const limit = Math.min(Number(url.searchParams.get("limit") ?? 20) || 20, 50);
        const raw = url.searchParams.get("cursor");
        const after = raw === null ? 0 : readCursor(raw);
        if (after === undefined) return json(400, { error: "bad cursor" });
        const all = [...notes.values()].filter((n) => n.id > after).sort((a, b) => a.id - b.id);
        const items = all.slice(0, limit).map(({ id, title, updated_at }) => ({
          id,
          title,
          updated_at,
        }));
        const next_cursor = all.length > limit ? cursorFor(items.at(-1)!.id) : null;
        return json(200, { items, next_cursor });
      }
      if (req.method === "POST") {
        const body = await req.json().catch(() => undefined);
        if (typeof body?.title !== "string" || body.title === "") {
          return json(422, { error: "title is required" });
        }
        const note = {
          id: nextId++,
          title: body.title,
          body: String(body.body ?? ""),
          updated_at: new Date().toISOString(),
        };
        notes.set(note.id, note);
        return json(201, note, { location: `/api/notes/${note.id}` });
      }
    }
    if ((m = /^\/api\/notes\/(\d+)$/.exec(path))) {
      const note = notes.get(Number(m[1]));
      if (!note) return json(404, { error: "no such note" });
      if (req.method === "GET") return json(200, note, { etag: etagOf(note.id) });
      if (req.method === "PATCH") {
        // Optimistic concurrency: a write names the version it read.
        const ifMatch = req.headers.get("if-match");
        if (!ifMatch) return json(428, { error: "If-Match is required" });
        if (ifMatch !== etagOf(note.id)) return json(412, { error: "the note changed" });
        const body = await req.json().catch(() => undefined);
        if (typeof body?.title === "string") note.title = body.title;
        if (typeof body?.body === "string") note.body = body.body;
        note.updated_at = new Date().toISOString();
        etags.set(note.id, `"${hex(8)}"`);
        return json(200, note, { etag: etagOf(note.id) });
      }
    }
    if ((m = /^\/api\/notes\/(\d+)\/attachments$/.exec(path)) && req.method === "POST") {
      const note = notes.get(Number(m[1]));
      if (!note) return json(404, { error: "no such note" });
      const form = await req.formData().catch(() => undefined);
      const file = form?.get("file");
      // Browsers keep no upload bytes in a HAR: a file is required, the caption may be lost.
      if (!(file instanceof File) || file.size === 0) {
        return json(422, { error: "file is required" });
      }
      const caption = String(form?.get("caption") ?? "");
      attachments.push({ note: note.id, filename: file.name, caption, size: file.size });
      return json(201, { id: `att_${hex(4)}`, filename: file.name, caption, size: file.size });
    }
    if ((m = /^\/api\/workspaces\/([^/]+)\/exports$/.exec(path)) && req.method === "POST") {
      if (m[1] !== workspace) return json(404, { error: "no such workspace" });
      await req.body?.cancel();
      const id = `exp_${hex(6)}`;
      exports.set(id, { created: Date.now(), notes: notes.size });
      return json(202, { id, status: "queued" }, { location: `/api/exports/${id}` });
    }
    if ((m = /^\/api\/exports\/([\w]+)$/.exec(path)) && req.method === "GET") {
      const job = exports.get(m[1]);
      if (!job) return json(404, { error: "no such export" });
      const age = Date.now() - job.created;
      if (age < 250) return json(200, { id: m[1], status: "running" });
      const file = `/files/exports/${m[1]}.csv`;
      const exp = String(Math.floor(job.created / 1000) + 900);
      // Relative, signed: only the whole URL, as handed out, downloads the file.
      const download_url = `${file}?exp=${exp}&sig=${await signDownload(file, exp)}`;
      return json(200, { id: m[1], status: "done", download_url });
    }
    if ((m = /^\/api\/workspaces\/([^/]+)\/changes$/.exec(path)) && req.method === "GET") {
      if (m[1] !== workspace) return json(404, { error: "no such workspace" });
      // A long-poll: nothing changes while the page waits, so it stays open until the page leaves.
      const wait = Math.min(Number(new URL(req.url).searchParams.get("wait")) || 0, 30);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, wait * 1000);
        req.signal.addEventListener("abort", () => {
          clearTimeout(timer);
          resolve();
        });
      });
      return json(200, { changes: [] });
    }
    return json(404, { error: "not found" });
  }

  const appServer = Deno.serve({ ...quiet, port: options.port ?? 0 }, async (req) => {
    const url = new URL(req.url);
    const path = url.pathname;
    calls.push(`${req.method} ${path}`);
    const jar = cookies(req);
    const sid = jar.get(SESSION) ?? "";
    const s = sessions.get(sid);

    if (path === "/assets/app.js") {
      return new Response(APP_JS, { headers: { "content-type": "text/javascript" } });
    }
    if (path === "/assets/app.css") {
      return new Response("body { font: 15px sans-serif; margin: 2em }", {
        headers: { "content-type": "text/css" },
      });
    }
    if (path === "/favicon.ico") return new Response(null, { status: 204 });
    const download = /^\/files\/exports\/(\w+)\.csv$/.exec(path);
    if (download && req.method === "GET") {
      // The signature is the credential: no session needed, any change refused.
      const exp = url.searchParams.get("exp") ?? "";
      const sig = url.searchParams.get("sig") ?? "";
      const job = exports.get(download[1]);
      if (!job || sig !== await signDownload(path, exp) || Number(exp) * 1000 < Date.now()) {
        return html("<h1>Forbidden</h1>", 403);
      }
      const rows = [...notes.values()].slice(0, job.notes).map((n) => `${n.id},${n.title}`);
      return new Response(["id,title", ...rows].join("\n") + "\n", {
        headers: { "content-type": "text/csv; charset=utf-8" },
      });
    }
    if (path === "/" && req.method === "GET") return redirect(s?.user ? "/dashboard" : "/login");
    if (path === "/login" && req.method === "GET") {
      if (s) return html(loginPage(s));
      const [fresh, session] = newSession();
      return html(loginPage(session), 200, [sessionCookie(fresh)]);
    }
    if (path === "/login" && req.method === "POST") {
      if (!/^application\/x-www-form-urlencoded/.test(req.headers.get("content-type") ?? "")) {
        return html("<p>Expected a form</p>", 415);
      }
      const form = new URLSearchParams(await req.text());
      if (!s || form.get("authenticity_token") !== s.csrf) {
        return html("<h1>Invalid authenticity token</h1>", 422);
      }
      if (form.get("email") !== EMAIL || form.get("password") !== PASSWORD) {
        return html(loginPage(s, "Wrong e-mail or password"), 401);
      }
      // The pre-login session is replaced, never promoted (session fixation).
      sessions.delete(sid);
      const [fresh, session] = newSession(EMAIL);
      const next = form.get("next") ?? "/dashboard";
      return redirect(next.startsWith("/") && !next.startsWith("//") ? next : "/dashboard", [
        sessionCookie(fresh),
        `${CSRF_COOKIE}=${encodeURIComponent(session.csrf)}; Path=/; SameSite=Strict`,
      ]);
    }
    if (path === "/dashboard" && req.method === "GET") {
      if (!s?.user) return redirect("/login");
      return html(dashboard(s));
    }
    if (path === "/logout" && req.method === "POST") {
      const form = new URLSearchParams(await req.text());
      if (!s?.user || form.get("authenticity_token") !== s.csrf) {
        return html("<h1>Invalid authenticity token</h1>", 422);
      }
      sessions.delete(sid);
      return redirect("/login", [
        `${SESSION}=; Path=/; Max-Age=0`,
        `${CSRF_COOKIE}=; Path=/; Max-Age=0`,
      ]);
    }
    if (path.startsWith("/api/")) {
      if (!s?.user) return json(401, { error: "not signed in" });
      const header = req.headers.get("x-csrf-token");
      const double = decodeURIComponent(jar.get(CSRF_COOKIE) ?? "");
      if (!header || header !== double || header !== s.csrf) {
        return json(403, { error: "bad csrf token" });
      }
      if (req.headers.get("x-session-key") !== s.key) {
        return json(401, { error: "bad session key" });
      }
      return await api(req, path);
    }
    await req.body?.cancel();
    return html("<h1>Not found</h1>", 404);
  });
  const origin = `http://127.0.0.1:${appServer.addr.port}`;

  return {
    origin,
    telemetry,
    calls,
    get events() {
      return events;
    },
    workspace,
    attachments,
    async close() {
      await Promise.all([appServer.shutdown(), telemetryServer.shutdown()]);
    },
  };
}

if (import.meta.main) {
  const arg = (name: string) => {
    const at = Deno.args.indexOf(name);
    return at === -1 ? undefined : Number(Deno.args[at + 1]);
  };
  const app = startFormapp({ port: arg("--port"), telemetryPort: arg("--telemetry-port") });
  console.error(`formapp on ${app.origin}, telemetry on ${app.telemetry}`);
}
