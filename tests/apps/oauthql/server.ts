/**
 * OAuthQL: a single-page app that signs in with OAuth 2 authorization code +
 * PKCE (S256) against a local authorization server on another port, then
 * calls a GraphQL API with the bearer token. One app shape of the
 * `convert har` corpus (see README.md beside this file).
 *
 * - The authorization server (`auth`): `GET /authorize` checks the client,
 *   the redirect URI and the S256 challenge, sets a pre-login `as_sid` cookie
 *   and renders a login form (hidden `txn` and `csrf`); `POST /login`
 *   (urlencoded) answers `303` to `/consent` and rotates the cookie;
 *   `GET /consent` renders a consent form; `POST /consent` answers `302` to
 *   the SPA's `/callback?code=…&state=…`. `POST /token` (CORS) exchanges a
 *   code and its `code_verifier` (S256 of it must equal the challenge), or a
 *   refresh token (rotated: the old refresh and access tokens stop working).
 * - The SPA (`origin`) generates the verifier, challenge and state in the
 *   page, exchanges the code by `fetch`, then calls `POST /graphql`
 *   (`{query, variables, operationName}`) and persisted-query GETs
 *   (`?operationName=…&variables=…&extensions={"persistedQuery":…}`, each
 *   percent-encoded JSON), with ids made by mutations and cursor pagination.
 *
 * State is in memory: every start is a fresh instance (new tokens, codes,
 * cursors' key, ids).
 *
 * Run by hand: `deno run --allow-net tests/apps/oauthql/server.ts --port 8711 --auth-port 8712`.
 *
 * @module
 */

/** The one user. */
export const USERNAME = "ada@oauthql.test";
/** Her password: `&`, a space, `#` and `ü` must survive form encoding. */
export const PASSWORD = "Pk&ce ql#9ü";
/** The SPA's public client id (no secret: PKCE). */
export const CLIENT_ID = "oauthql-spa";

/** A running OAuthQL: the SPA with its GraphQL API, and the authorization server. */
export interface Oauthql {
  /** `http://127.0.0.1:PORT` of the SPA and its GraphQL API. */
  origin: string;
  /** `http://127.0.0.1:PORT` of the authorization server. */
  auth: string;
  /** `METHOD /path` (plus `operationName` for GraphQL) of every request answered, in order. */
  calls: string[];
  /** GraphQL answers that held `errors` (a bad id, cursor or token). */
  errors: string[];
  close(): Promise<void>;
}

const b64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
const random = (n: number) => b64url(crypto.getRandomValues(new Uint8Array(n)));
const hex = (n: number) =>
  [...crypto.getRandomValues(new Uint8Array(n))].map((b) => b.toString(16).padStart(2, "0"))
    .join("");
const sha256 = async (text: string) =>
  new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
const toHex = (bytes: Uint8Array) =>
  [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The GraphQL documents the API knows, by operation name. */
export const DOCUMENTS: Record<string, string> = {
  Viewer: "query Viewer { viewer { id name email } }",
  CreateProject:
    "mutation CreateProject($input: ProjectInput!) { createProject(input: $input) { project { id name } } }",
  AddTask:
    "mutation AddTask($projectId: ID!, $title: String!) { addTask(projectId: $projectId, title: $title) { task { id title done } } }",
  ProjectTasks:
    "query ProjectTasks($projectId: ID!, $first: Int!, $after: String) { project(id: $projectId) { id name tasks(first: $first, after: $after) { edges { cursor node { id title done } } pageInfo { endCursor hasNextPage } } } }",
  CompleteTask:
    "mutation CompleteTask($id: ID!) { completeTask(id: $id) { task { id title done } } }",
  Project: "query Project($id: ID!) { project(id: $id) { id name taskCount } }",
};

interface AuthSession {
  csrf: string;
  txn?: Pending;
  user?: string;
}

interface Pending {
  id: string;
  redirectUri: string;
  state: string;
  challenge: string;
  scope: string;
}

interface Task {
  id: string;
  title: string;
  done: boolean;
}

const SPA_JS = String.raw`
(() => {
  const config = JSON.parse(document.getElementById("config").textContent);
  const $ = (s) => document.querySelector(s);
  const say = (text) => { $("#status").textContent = text; };
  const b64url = (bytes) => btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  const sha256 = async (text) => new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  const redirectUri = location.origin + "/callback";
  $("#signin").onclick = async () => {
    const verifier = b64url(crypto.getRandomValues(new Uint8Array(32)));
    const state = b64url(crypto.getRandomValues(new Uint8Array(16)));
    sessionStorage.setItem("pkce", JSON.stringify({ verifier, state }));
    const q = new URLSearchParams({
      response_type: "code", client_id: config.clientId, redirect_uri: redirectUri,
      scope: "projects:read projects:write", state,
      code_challenge: b64url(await sha256(verifier)), code_challenge_method: "S256",
    });
    location.assign(config.authOrigin + "/authorize?" + q);
  };
  const tokens = () => JSON.parse(sessionStorage.getItem("tokens") || "{}");
  const token = async (form) => {
    const res = await fetch(config.authOrigin + "/token", {
      method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: new URLSearchParams(form),
    });
    const body = await res.json();
    if (!res.ok) throw new Error("token: " + body.error);
    sessionStorage.setItem("tokens", JSON.stringify(body));
  };
  const gql = async (operationName, variables) => {
    const res = await fetch("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", authorization: "Bearer " + tokens().access_token },
      body: JSON.stringify({ query: config.documents[operationName], variables, operationName }),
    });
    const body = await res.json();
    if (body.errors) throw new Error(operationName + ": " + body.errors[0].message);
    return body.data;
  };
  const persisted = async (operationName, variables) => {
    const sha256Hash = [...await sha256(config.documents[operationName])].map((b) => b.toString(16).padStart(2, "0")).join("");
    const q = "operationName=" + operationName +
      "&variables=" + encodeURIComponent(JSON.stringify(variables)) +
      "&extensions=" + encodeURIComponent(JSON.stringify({ persistedQuery: { version: 1, sha256Hash } }));
    const res = await fetch("/graphql?" + q, {
      headers: { accept: "application/json", authorization: "Bearer " + tokens().access_token },
    });
    const body = await res.json();
    if (body.errors) throw new Error(operationName + ": " + body.errors[0].message);
    return body.data;
  };
  let project = null;
  const created = [];
  let cursor = null;
  $("#create").onclick = async () => {
    project = (await gql("CreateProject", { input: { name: $("#name").value } })).createProject.project;
    say("Project " + project.name + " created");
  };
  $("#add").onclick = async () => {
    const task = (await gql("AddTask", { projectId: project.id, title: $("#title").value })).addTask.task;
    created.push(task);
    say("Task " + task.title + " added");
  };
  const page = async (after) => {
    const data = await persisted("ProjectTasks", { projectId: project.id, first: 2, after });
    const conn = data.project.tasks;
    cursor = conn.pageInfo.endCursor;
    return conn.edges.map((e) => e.node);
  };
  let listed = [];
  $("#list").onclick = async () => { listed = await page(null); say("Listed " + listed.length); };
  $("#more").onclick = async () => { const more = await page(cursor); listed.push(...more); say("Loaded " + more.length + " more"); };
  $("#complete").onclick = async () => {
    const task = (await gql("CompleteTask", { id: listed[listed.length - 1].id })).completeTask.task;
    say("Completed " + task.title);
  };
  $("#renew").onclick = async () => {
    await token({ grant_type: "refresh_token", refresh_token: tokens().refresh_token, client_id: config.clientId });
    say("Session renewed");
  };
  $("#reload").onclick = async () => {
    const p = (await gql("Project", { id: project.id })).project;
    say(p.name + " has " + p.taskCount + " tasks");
  };
  (async () => {
    if (location.pathname === "/callback") {
      const q = new URLSearchParams(location.search);
      const pkce = JSON.parse(sessionStorage.getItem("pkce") || "{}");
      if (q.get("state") !== pkce.state) return say("State mismatch");
      await token({
        grant_type: "authorization_code", code: q.get("code"), redirect_uri: redirectUri,
        client_id: config.clientId, code_verifier: pkce.verifier,
      });
      sessionStorage.removeItem("pkce");
      history.replaceState(null, "", "/");
    }
    if (!tokens().access_token) return say("Signed out");
    const me = (await gql("Viewer", {})).viewer;
    say("Signed in as " + me.name);
  })().catch((e) => say("Failed: " + e.message));
})();
`;

/** Starts the SPA (with its GraphQL API) and the authorization server on 127.0.0.1. */
export function startOauthql(options: { port?: number; authPort?: number } = {}): Oauthql {
  const quiet = { hostname: "127.0.0.1", onListen() {} };
  const calls: string[] = [];
  const errors: string[] = [];
  const cursorKey = hex(6);
  const userId = `usr_${hex(5)}`;
  const sessions = new Map<string, AuthSession>();
  const codes = new Map<string, Pending & { user: string; expires: number }>();
  const access = new Map<string, { user: string; refresh: string }>();
  const refresh = new Map<string, { user: string; access: string }>();
  const projects = new Map<string, { id: string; name: string; tasks: Task[] }>();
  const tasks = new Map<string, Task>();
  const hashes = new Map<string, string>();
  const ready = Promise.all(
    Object.entries(DOCUMENTS).map(async ([name, doc]) =>
      hashes.set(toHex(await sha256(doc)), name)
    ),
  );

  let spaOrigin = "";
  const html = (text: string, status = 200, setCookies: string[] = []) => {
    const headers = new Headers({ "content-type": "text/html; charset=utf-8" });
    for (const c of setCookies) headers.append("set-cookie", c);
    return new Response(text, { status, headers });
  };
  const redirect = (to: string, status: number, setCookies: string[] = []) => {
    const headers = new Headers({ location: to, "content-type": "text/html; charset=utf-8" });
    for (const c of setCookies) headers.append("set-cookie", c);
    return new Response(`<a href="${escapeHtml(to)}">Redirecting</a>`, { status, headers });
  };
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { "content-type": "application/json; charset=utf-8", ...headers },
    });
  const cookie = (req: Request, name: string) => {
    for (const part of (req.headers.get("cookie") ?? "").split(";")) {
      const eq = part.indexOf("=");
      if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
    }
    return "";
  };
  const newSession = (s: Omit<AuthSession, "csrf">): [string, AuthSession] => {
    const sid = random(24);
    const session = { ...s, csrf: random(18) };
    sessions.set(sid, session);
    return [sid, session];
  };
  const sessionCookie = (sid: string) => `as_sid=${sid}; Path=/; HttpOnly; SameSite=Lax`;
  const page = (title: string, body: string) =>
    `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>${title} · Local ID</title></head>\n<body>\n${body}\n</body></html>\n`;

  const issue = (user: string) => {
    const at = `at_${random(24)}`;
    const rt = `rt_${random(32)}`;
    access.set(at, { user, refresh: rt });
    refresh.set(rt, { user, access: at });
    return {
      access_token: at,
      token_type: "Bearer",
      expires_in: 300,
      refresh_token: rt,
      scope: "projects:read projects:write",
    };
  };

  async function token(req: Request, cors: Record<string, string>): Promise<Response> {
    const headers = { ...cors, "cache-control": "no-store" };
    if (!/^application\/x-www-form-urlencoded/.test(req.headers.get("content-type") ?? "")) {
      return json(400, { error: "invalid_request", error_description: "expected a form" }, headers);
    }
    const form = new URLSearchParams(await req.text());
    if (form.get("client_id") !== CLIENT_ID) return json(401, { error: "invalid_client" }, headers);
    const grant = form.get("grant_type");
    if (grant === "authorization_code") {
      const code = codes.get(form.get("code") ?? "");
      codes.delete(form.get("code") ?? "");
      if (!code || code.expires < Date.now() || code.redirectUri !== form.get("redirect_uri")) {
        return json(400, { error: "invalid_grant", error_description: "bad code" }, headers);
      }
      const challenge = b64url(await sha256(form.get("code_verifier") ?? ""));
      if (challenge !== code.challenge) {
        return json(400, { error: "invalid_grant", error_description: "PKCE failed" }, headers);
      }
      return json(200, issue(code.user), headers);
    }
    if (grant === "refresh_token") {
      const old = refresh.get(form.get("refresh_token") ?? "");
      if (!old) {
        return json(400, { error: "invalid_grant", error_description: "bad refresh" }, headers);
      }
      // Rotation: the old pair stops working.
      refresh.delete(form.get("refresh_token") ?? "");
      access.delete(old.access);
      return json(200, issue(old.user), headers);
    }
    return json(400, { error: "unsupported_grant_type" }, headers);
  }

  const authServer = Deno.serve({ ...quiet, port: options.authPort ?? 0 }, async (req) => {
    const url = new URL(req.url);
    const path = url.pathname;
    calls.push(`${req.method} auth${path}`);
    const sid = cookie(req, "as_sid");
    const s = sessions.get(sid);
    const cors = {
      "access-control-allow-origin": spaOrigin,
      "access-control-allow-headers": "content-type, accept",
      "access-control-allow-methods": "POST",
      vary: "origin",
    };
    if (req.method === "OPTIONS") return new Response(null, { status: 204, headers: cors });
    if (path === "/favicon.ico") return new Response(null, { status: 204 });
    if (path === "/authorize" && req.method === "GET") {
      const q = url.searchParams;
      const redirectUri = q.get("redirect_uri") ?? "";
      const challenge = q.get("code_challenge") ?? "";
      if (
        q.get("client_id") !== CLIENT_ID || redirectUri !== `${spaOrigin}/callback` ||
        q.get("response_type") !== "code" || q.get("code_challenge_method") !== "S256" ||
        !/^[A-Za-z0-9_-]{43}$/.test(challenge) || !q.get("state")
      ) return html(page("Error", "<h1>Invalid authorization request</h1>"), 400);
      const txn: Pending = {
        id: random(12),
        redirectUri,
        state: q.get("state")!,
        challenge,
        scope: q.get("scope") ?? "",
      };
      const [fresh, session] = newSession({ txn });
      return html(
        page(
          "Sign in",
          `<h1>Sign in to OAuthQL</h1>
<form action="/login" method="post">
  <input type="hidden" name="txn" value="${txn.id}">
  <input type="hidden" name="csrf" value="${session.csrf}">
  <label>E-mail <input id="username" name="username" type="email"></label>
  <label>Password <input id="password" name="password" type="password"></label>
  <button id="login" type="submit">Sign in</button>
</form>`,
        ),
        200,
        [sessionCookie(fresh)],
      );
    }
    if (path === "/login" && req.method === "POST") {
      const form = new URLSearchParams(await req.text());
      if (!s?.txn || form.get("txn") !== s.txn.id || form.get("csrf") !== s.csrf) {
        return html(page("Error", "<h1>Session expired</h1>"), 400);
      }
      if (form.get("username") !== USERNAME || form.get("password") !== PASSWORD) {
        return html(page("Error", "<h1>Wrong e-mail or password</h1>"), 401);
      }
      sessions.delete(sid);
      const [fresh] = newSession({ txn: s.txn, user: USERNAME });
      return redirect("/consent", 303, [sessionCookie(fresh)]);
    }
    if (path === "/consent" && req.method === "GET") {
      if (!s?.user || !s.txn) return html(page("Error", "<h1>Not signed in</h1>"), 401);
      return html(page(
        "Allow access",
        `<h1>Allow ${CLIENT_ID} to ${escapeHtml(s.txn.scope)}?</h1>
<form action="/consent" method="post">
  <input type="hidden" name="txn" value="${s.txn.id}">
  <input type="hidden" name="csrf" value="${s.csrf}">
  <button id="allow" name="decision" value="allow" type="submit">Allow</button>
</form>`,
      ));
    }
    if (path === "/consent" && req.method === "POST") {
      const form = new URLSearchParams(await req.text());
      if (!s?.user || !s.txn || form.get("txn") !== s.txn.id || form.get("csrf") !== s.csrf) {
        return html(page("Error", "<h1>Session expired</h1>"), 400);
      }
      if (form.get("decision") !== "allow") return html(page("Denied", "<h1>Denied</h1>"), 403);
      const code = random(24);
      codes.set(code, { ...s.txn, user: s.user, expires: Date.now() + 60_000 });
      const to = new URL(s.txn.redirectUri);
      to.searchParams.set("code", code);
      to.searchParams.set("state", s.txn.state);
      s.txn = undefined;
      return redirect(to.href, 302);
    }
    if (path === "/token" && req.method === "POST") return await token(req, cors);
    await req.body?.cancel();
    return json(404, { error: "not_found" });
  });
  const auth = `http://127.0.0.1:${authServer.addr.port}`;

  const fail = (op: string, message: string) => {
    errors.push(`${op}: ${message}`);
    return json(200, { data: null, errors: [{ message, path: [op] }] });
  };
  const cursorOf = (projectId: string, index: number) =>
    btoa(JSON.stringify({ p: projectId, i: index, k: cursorKey }));
  const indexOf = (cursor: string, projectId: string): number | undefined => {
    try {
      const c = JSON.parse(atob(cursor));
      return c.k === cursorKey && c.p === projectId && typeof c.i === "number" ? c.i : undefined;
    } catch {
      return undefined;
    }
  };

  // deno-lint-ignore no-explicit-any
  function resolve(op: string, v: Record<string, any>, user: string): Response {
    const project = (id: unknown) => projects.get(String(id));
    switch (op) {
      case "Viewer":
        return json(200, { data: { viewer: { id: userId, name: "Ada", email: user } } });
      case "CreateProject": {
        const name = String(v.input?.name ?? "");
        if (!name) return fail(op, "name is required");
        const p = { id: `prj_${hex(5)}`, name, tasks: [] };
        projects.set(p.id, p);
        return json(200, { data: { createProject: { project: { id: p.id, name } } } });
      }
      case "AddTask": {
        const p = project(v.projectId);
        if (!p) return fail(op, `no project ${v.projectId}`);
        const t = { id: `tsk_${hex(5)}`, title: String(v.title ?? ""), done: false };
        p.tasks.push(t);
        tasks.set(t.id, t);
        return json(200, { data: { addTask: { task: t } } });
      }
      case "ProjectTasks": {
        const p = project(v.projectId);
        if (!p) return fail(op, `no project ${v.projectId}`);
        let start = 0;
        if (v.after !== null && v.after !== undefined) {
          const at = indexOf(String(v.after), p.id);
          if (at === undefined) return fail(op, "bad cursor");
          start = at + 1;
        }
        const first = Math.min(Number(v.first) || 10, 50);
        const slice = p.tasks.slice(start, start + first);
        const edges = slice.map((t, i) => ({ cursor: cursorOf(p.id, start + i), node: t }));
        return json(200, {
          data: {
            project: {
              id: p.id,
              name: p.name,
              tasks: {
                edges,
                pageInfo: {
                  endCursor: edges.at(-1)?.cursor ?? null,
                  hasNextPage: start + first < p.tasks.length,
                },
              },
            },
          },
        });
      }
      case "CompleteTask": {
        const t = tasks.get(String(v.id));
        if (!t) return fail(op, `no task ${v.id}`);
        t.done = true;
        return json(200, { data: { completeTask: { task: t } } });
      }
      case "Project": {
        const p = project(v.id);
        if (!p) return fail(op, `no project ${v.id}`);
        return json(200, {
          data: { project: { id: p.id, name: p.name, taskCount: p.tasks.length } },
        });
      }
    }
    return fail(op, "unknown operation");
  }

  async function graphql(req: Request, url: URL): Promise<Response> {
    const bearer = /^Bearer (\S+)$/.exec(req.headers.get("authorization") ?? "")?.[1] ?? "";
    const who = access.get(bearer);
    let op: string | null;
    // deno-lint-ignore no-explicit-any
    let variables: any;
    if (req.method === "GET") {
      await ready;
      op = url.searchParams.get("operationName");
      try {
        variables = JSON.parse(url.searchParams.get("variables") ?? "{}");
        const ext = JSON.parse(url.searchParams.get("extensions") ?? "{}");
        const known = hashes.get(ext?.persistedQuery?.sha256Hash ?? "");
        if (!known || known !== op) return fail(op ?? "?", "PersistedQueryNotFound");
      } catch {
        return fail(op ?? "?", "variables or extensions are not JSON");
      }
    } else {
      const body = await req.json().catch(() => undefined);
      op = body?.operationName ?? null;
      variables = body?.variables ?? {};
      if (!op || DOCUMENTS[op] !== body?.query) return fail(op ?? "?", "unknown document");
    }
    calls.push(`${req.method} /graphql ${op}`);
    if (!who) {
      errors.push(`${op}: unauthenticated`);
      return json(401, { errors: [{ message: "unauthenticated" }] });
    }
    return resolve(op!, variables ?? {}, who.user);
  }

  const spaServer = Deno.serve({ ...quiet, port: options.port ?? 0 }, async (req) => {
    const url = new URL(req.url);
    const path = url.pathname;
    if (path !== "/graphql") calls.push(`${req.method} ${path}`);
    if (path === "/graphql" && (req.method === "POST" || req.method === "GET")) {
      return await graphql(req, url);
    }
    await req.body?.cancel();
    if (path === "/app.js") {
      return new Response(SPA_JS, { headers: { "content-type": "text/javascript" } });
    }
    if (path === "/favicon.ico") return new Response(null, { status: 204 });
    if ((path === "/" || path === "/callback") && req.method === "GET") {
      const config = { clientId: CLIENT_ID, authOrigin: auth, documents: DOCUMENTS };
      return html(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>OAuthQL</title>
<script type="application/json" id="config">${JSON.stringify(config)}</script>
<script src="/app.js" defer></script></head>
<body>
<button id="signin">Sign in</button>
<input id="name" value="Launch"> <button id="create">Create project</button>
<input id="title"> <button id="add">Add task</button>
<button id="list">List</button> <button id="more">More</button>
<button id="complete">Complete last</button> <button id="renew">Renew session</button>
<button id="reload">Reload project</button>
<p id="status"></p>
</body></html>
`);
    }
    return json(404, { error: "not found" });
  });
  const origin = `http://127.0.0.1:${spaServer.addr.port}`;
  spaOrigin = origin;
  return {
    origin,
    auth,
    calls,
    errors,
    async close() {
      await Promise.all([spaServer.shutdown(), authServer.shutdown()]);
    },
  };
}

if (import.meta.main) {
  const arg = (name: string) => {
    const at = Deno.args.indexOf(name);
    return at === -1 ? undefined : Number(Deno.args[at + 1]);
  };
  const app = startOauthql({ port: arg("--port"), authPort: arg("--auth-port") });
  console.error(`oauthql on ${app.origin}, authorization server on ${app.auth}`);
}
