/**
 * Csrfspa: a single-page app's JSON API guarded by a rotating single-use
 * CSRF token, the shape seen on an unseen SPA that `convert har` once turned
 * into five variables to set by hand (issue 52).
 *
 * - Every response carries a fresh `X-CSRF-Next` header, base64 with `+`,
 *   `/` and `=` in it; the next request must send exactly that value (once:
 *   a token sent a second time, or an older one, is refused with `403`), as
 *   the `X-CSRF-Token` header, a `csrf_token` JSON body field, a `_csrf`
 *   query parameter (percent-encoded) or a `csrf` cookie, the first found.
 *   The first token comes from `GET /api/csrf`.
 * - `POST /api/login` (`{email, password}`) sets the `sid` session cookie
 *   and answers an `api_key` that `GET /api/me` wants as `X-Api-Key`;
 *   every later call needs the cookie.
 * - `POST /api/notes` (`{title}`) answers `201 {id}`; `GET`, `PATCH` and
 *   `DELETE /api/notes/:id` use that id; `GET /api/notes` lists them.
 *
 * State is in memory: every start is a fresh instance (new tokens, ids and
 * session).
 *
 * @module
 */

/** The one user. */
export const EMAIL = "ada@csrfspa.test";
/** Her password. */
export const PASSWORD = "R0tating-Secret!";

/** A running Csrfspa. */
export interface Csrfspa {
  /** `http://127.0.0.1:PORT`. */
  origin: string;
  /** `METHOD /path STATUS` of every request answered, in order. */
  calls: string[];
  /** Every answer of 400 or more, as `METHOD /path STATUS reason`. */
  errors: string[];
  close(): Promise<void>;
}

/**
 * The single page: its script makes the journey when #run is clicked, with
 * the e-mail and password the user typed, each call carrying the token the
 * answer before it handed out.
 */
const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Csrfspa</title></head>
<body><input id="email" type="email"><input id="password" type="password">
<button id="run">Run</button><p id="status">idle</p>
<script>
let token = "";
let apiKey = "";
async function call(method, where, carry, body) {
  const headers = { accept: "application/json" };
  if (token && carry === "header") headers["x-csrf-token"] = token;
  if (where === "/api/me") headers["x-api-key"] = apiKey;
  if (token && carry === "cookie") document.cookie = "csrf=" + token + "; path=/";
  const sent = token && carry === "body" ? { ...body, csrf_token: token } : body;
  if (sent !== undefined) headers["content-type"] = "application/json";
  const path = token && carry === "query" ? where + "?_csrf=" + encodeURIComponent(token) : where;
  const res = await fetch(path, { method, headers, body: sent === undefined ? undefined : JSON.stringify(sent) });
  if (carry === "cookie") document.cookie = "csrf=; path=/; max-age=0";
  token = res.headers.get("x-csrf-next") || token;
  const text = await res.text();
  if (res.status >= 400) throw new Error(method + " " + where + " " + res.status + " " + text);
  return text === "" ? undefined : JSON.parse(text);
}
document.getElementById("run").onclick = async () => {
  const status = document.getElementById("status");
  try {
    await call("GET", "/api/csrf", "header");
    const login = await call("POST", "/api/login", "header", {
      email: document.getElementById("email").value,
      password: document.getElementById("password").value,
    });
    apiKey = login.api_key;
    await call("GET", "/api/me", "header");
    const first = await call("POST", "/api/notes", "body", { title: "Buy milk" });
    await call("POST", "/api/notes", "header", { title: "Write report" });
    await call("GET", "/api/notes", "query");
    await call("GET", "/api/notes/" + first.id, "cookie");
    await call("PATCH", "/api/notes/" + first.id, "header", { done: true });
    await call("DELETE", "/api/notes/" + first.id, "query");
    await call("GET", "/api/notes", "header");
    status.textContent = "Done";
  } catch (error) {
    status.textContent = "Failed: " + error.message;
  }
};
</script></body></html>
`;

/** A token in base64 that always holds `+`, `/` and padding, as a server's often do. */
const token = () =>
  btoa(String.fromCharCode(0xfb, 0xef, 0xff, ...crypto.getRandomValues(new Uint8Array(14))));

const hex = (n: number) =>
  [...crypto.getRandomValues(new Uint8Array(n))].map((b) => b.toString(16).padStart(2, "0"))
    .join("");

/** Starts the app on 127.0.0.1 (an ephemeral port unless told: the recorder uses a fixed one). */
export function startCsrfspa(options: { port?: number } = {}): Csrfspa {
  const calls: string[] = [];
  const errors: string[] = [];
  const sessions = new Map<string, string>();
  const notes = new Map<string, { id: string; title: string; done: boolean }>();
  // The one token the next request may send; undefined before GET /api/csrf.
  let expected: string | undefined;

  const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    expected = token();
    return new Response(body === null ? null : JSON.stringify(body), {
      status,
      headers: { "content-type": "application/json", "x-csrf-next": expected, ...headers },
    });
  };

  const handle = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    const path = url.pathname;
    // The page and its icon hand out no token: only the API's answers rotate it.
    if (req.method === "GET" && path === "/") {
      return new Response(PAGE, { headers: { "content-type": "text/html; charset=utf-8" } });
    }
    if (path === "/favicon.ico") return new Response(null, { status: 204 });
    if (req.method === "GET" && path === "/api/csrf") return answer(200, { ok: true });
    const text = req.body ? await req.text() : "";
    const json = text === "" ? {} : JSON.parse(text);
    const sent = req.headers.get("x-csrf-token") ?? json.csrf_token ??
      url.searchParams.get("_csrf") ?? cookieOf(req, "csrf");
    delete json.csrf_token;
    if (expected === undefined || sent !== expected) {
      return answer(403, { error: `stale or missing CSRF token ${JSON.stringify(sent)}` });
    }
    if (req.method === "POST" && path === "/api/login") {
      const { email, password } = json;
      if (email !== EMAIL || password !== PASSWORD) return answer(401, { error: "bad login" });
      const sid = hex(16);
      const key = `ak_${hex(12)}`;
      sessions.set(sid, key);
      return answer(200, { user: { name: "Ada" }, api_key: key }, {
        "set-cookie": `sid=${sid}; Path=/; HttpOnly; SameSite=Lax`,
      });
    }
    const sid = cookieOf(req, "sid");
    if (!sid || !sessions.has(sid)) return answer(401, { error: "not logged in" });
    if (req.method === "GET" && path === "/api/me") {
      if (req.headers.get("x-api-key") !== sessions.get(sid)) {
        return answer(403, { error: "wrong api key" });
      }
      return answer(200, { name: "Ada" });
    }
    if (path === "/api/notes") {
      if (req.method === "GET") return answer(200, { notes: [...notes.values()] });
      if (req.method === "POST") {
        const { title } = json;
        const note = { id: `nt_${hex(6)}`, title: String(title), done: false };
        notes.set(note.id, note);
        return answer(201, note);
      }
    }
    const m = /^\/api\/notes\/([\w-]+)$/.exec(path);
    const note = m ? notes.get(m[1]) : undefined;
    if (m && !note) return answer(404, { error: `no note ${m[1]}` });
    if (note && req.method === "GET") return answer(200, note);
    if (note && req.method === "PATCH") {
      Object.assign(note, json);
      return answer(200, note);
    }
    if (note && req.method === "DELETE") {
      notes.delete(note.id);
      return answer(204, null);
    }
    return answer(404, { error: `no route ${req.method} ${path}` });
  };

  const cookieOf = (req: Request, name: string) =>
    new RegExp(`(?:^|;\\s*)${name}=([^;]+)`).exec(req.headers.get("cookie") ?? "")?.[1];

  const server = Deno.serve({
    hostname: "127.0.0.1",
    port: options.port ?? 0,
    onListen() {},
  }, async (req) => {
    const res = await handle(req);
    const line = `${req.method} ${new URL(req.url).pathname} ${res.status}`;
    calls.push(line);
    if (res.status >= 400) errors.push(`${line} ${await res.clone().text()}`);
    return res;
  });
  return {
    origin: `http://127.0.0.1:${server.addr.port}`,
    calls,
    errors,
    close: () => server.shutdown(),
  };
}
