/**
 * Splitapi: a single-page app whose JSON API lives on a second origin. One
 * app shape of the `convert har` corpus (see README.md beside this file).
 *
 * - The page (`origin`) serves only HTML and a script; every call goes by
 *   `fetch` to the API (`api`, another port), cross-origin: JSON bodies and
 *   the `Authorization` header make Chromium send a CORS preflight
 *   (`OPTIONS`) before each of them.
 * - `POST /v1/session` (`{email, password}`) answers an opaque access token
 *   and refresh token; `POST /v1/session/refresh` (`{refresh_token}`)
 *   rotates both: the old pair stops working, and sending a refresh token
 *   that was already used revokes the whole family (reuse detection), so a
 *   second refresh must send the token the first one returned.
 * - `POST /v1/boards` and `POST /v1/boards/:id/cards` answer `201` with an
 *   empty body: the new id is only in the `Location` header, which the
 *   page reads (exposed by CORS) and puts in later paths and bodies.
 * - `GET /v1/boards/:id/cards?limit=2` pages with a `Link: <…>; rel="next"`
 *   header (absolute URL with a cursor signed per instance), GitHub-style.
 *
 * State is in memory: every start is a fresh instance (new tokens, ids and
 * cursor key).
 *
 * Run by hand: `deno run --allow-net tests/apps/splitapi/server.ts --port 8741 --api-port 8742`.
 *
 * @module
 */
import { SPA_JS } from "./spa.ts";

/** The one user. */
export const EMAIL = "grace@splitapi.test";
/** Her password. */
export const PASSWORD = "Cr0ss-0rigin!";

/** A running Splitapi: the page's origin and the API's. */
export interface Splitapi {
  /** `http://127.0.0.1:PORT` serving the page. */
  origin: string;
  /** `http://127.0.0.1:PORT` of the JSON API. */
  api: string;
  /** `METHOD /path` of every API request answered (preflights included), in order. */
  calls: string[];
  /** Every API answer of 400 or more, as `METHOD /path STATUS reason`. */
  errors: string[];
  close(): Promise<void>;
}

interface Card {
  id: string;
  title: string;
  done: boolean;
}

const hex = (n: number) =>
  [...crypto.getRandomValues(new Uint8Array(n))].map((b) => b.toString(16).padStart(2, "0"))
    .join("");

/** Starts both servers on 127.0.0.1 (ephemeral ports unless told). */
export function startSplitapi(options: { port?: number; apiPort?: number } = {}): Splitapi {
  const quiet = { hostname: "127.0.0.1", onListen() {} };
  const calls: string[] = [];
  const errors: string[] = [];
  const cursorKey = hex(8);
  const access = new Map<string, string>(); // access token -> refresh token of its pair
  const refresh = new Map<string, { family: string; used: boolean; access: string }>();
  const revokedFamilies = new Set<string>();
  const boards = new Map<string, { id: string; name: string; cards: Card[] }>();
  let spaOrigin = "";
  let apiOrigin = "";

  const cors = () => ({
    "access-control-allow-origin": spaOrigin,
    "access-control-expose-headers": "location, link",
    vary: "origin",
  });
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { "content-type": "application/json", ...cors(), ...headers },
    });
  const created = (location: string) =>
    new Response(null, { status: 201, headers: { location, ...cors() } });
  const issue = (family: string) => {
    const at = `at_${hex(20)}`;
    const rt = `rt_${hex(24)}`;
    access.set(at, rt);
    refresh.set(rt, { family, used: false, access: at });
    return { access_token: at, refresh_token: rt, token_type: "Bearer", expires_in: 900 };
  };
  /** A cursor's MAC: 16 hex of SHA-256 over the instance's key and the text. */
  const sign = async (text: string) => {
    const digest = await crypto.subtle.digest(
      "SHA-256",
      new TextEncoder().encode(cursorKey + text),
    );
    return [...new Uint8Array(digest)].slice(0, 8).map((b) => b.toString(16).padStart(2, "0"))
      .join("");
  };
  const body = async (req: Request) => {
    try {
      return await req.json() as Record<string, unknown>;
    } catch {
      return {};
    }
  };

  async function route(req: Request, url: URL): Promise<Response> {
    const path = url.pathname;
    if (req.method === "POST" && path === "/v1/session") {
      const b = await body(req);
      if (b.email !== EMAIL || b.password !== PASSWORD) return json(401, { error: "bad login" });
      return json(200, issue(hex(8)));
    }
    if (req.method === "POST" && path === "/v1/session/refresh") {
      const token = String((await body(req)).refresh_token ?? "");
      const old = refresh.get(token);
      if (!old || revokedFamilies.has(old.family)) return json(401, { error: "invalid_grant" });
      if (old.used) {
        // A used refresh token sent again: stolen, so the whole family is revoked.
        revokedFamilies.add(old.family);
        return json(401, { error: "refresh token reused" });
      }
      old.used = true;
      access.delete(old.access);
      return json(200, issue(old.family));
    }
    const bearer = /^Bearer (\S+)$/.exec(req.headers.get("authorization") ?? "")?.[1] ?? "";
    const rt = access.get(bearer);
    if (!rt || revokedFamilies.has(refresh.get(rt)!.family)) {
      return json(401, { error: "unauthenticated" });
    }
    if (req.method === "GET" && path === "/v1/me") {
      return json(200, { email: EMAIL, name: "Grace", plan: "team" });
    }
    if (req.method === "POST" && path === "/v1/boards") {
      const name = String((await body(req)).name ?? "");
      if (!name) return json(422, { error: "name is required" });
      const id = `brd_${hex(6)}`;
      boards.set(id, { id, name, cards: [] });
      return created(`/v1/boards/${id}`);
    }
    const m = /^\/v1\/boards\/([^/]+)(?:\/cards(?:\/([^/]+))?)?$/.exec(path);
    const board = m ? boards.get(m[1]) : undefined;
    if (!m || !board) return json(404, { error: "no such board" });
    const [, , cardId] = m;
    if (req.method === "GET" && path === `/v1/boards/${board.id}`) {
      const done = board.cards.filter((c) => c.done).length;
      return json(200, { id: board.id, name: board.name, cards: board.cards.length, done });
    }
    if (req.method === "POST" && path.endsWith("/cards")) {
      const b = await body(req);
      if (b.board_id !== board.id) return json(422, { error: "board_id does not match" });
      const card = { id: `crd_${hex(6)}`, title: String(b.title ?? ""), done: false };
      board.cards.push(card);
      return created(`/v1/boards/${board.id}/cards/${card.id}`);
    }
    if (req.method === "GET" && path.endsWith("/cards")) {
      const limit = Number(url.searchParams.get("limit") ?? 2);
      let start = 0;
      const cursor = url.searchParams.get("cursor");
      if (cursor) {
        const [after, mac] = cursor.split(".");
        if (mac !== await sign(`${board.id}:${after}`)) return json(400, { error: "bad cursor" });
        start = board.cards.findIndex((c) => c.id === after) + 1;
      }
      const page = board.cards.slice(start, start + limit);
      const headers: Record<string, string> = { "x-total-count": String(board.cards.length) };
      if (start + limit < board.cards.length) {
        const last = page[page.length - 1].id;
        const next = `${last}.${await sign(`${board.id}:${last}`)}`;
        headers.link = `<${apiOrigin}${path}?limit=${limit}&cursor=${next}>; rel="next"`;
      }
      return json(200, page, headers);
    }
    const card = board.cards.find((c) => c.id === cardId);
    if (req.method === "PATCH" && card) {
      const b = await body(req);
      if (typeof b.done === "boolean") card.done = b.done;
      return json(200, card);
    }
    return json(404, { error: "not found" });
  }

  const apiServer = Deno.serve({ ...quiet, port: options.apiPort ?? 0 }, async (req) => {
    const url = new URL(req.url);
    calls.push(`${req.method} ${url.pathname}`);
    if (req.method === "OPTIONS") {
      return new Response(null, {
        status: 204,
        headers: {
          ...cors(),
          "access-control-allow-methods": "GET, POST, PATCH",
          "access-control-allow-headers": "authorization, content-type",
          "access-control-max-age": "0",
        },
      });
    }
    const res = await route(req, url);
    if (res.status >= 400) {
      errors.push(`${req.method} ${url.pathname} ${res.status} ${await res.clone().text()}`);
    }
    return res;
  });
  apiOrigin = `http://127.0.0.1:${apiServer.addr.port}`;

  const spaServer = Deno.serve({ ...quiet, port: options.port ?? 0 }, async (req) => {
    await req.body?.cancel();
    const path = new URL(req.url).pathname;
    if (path === "/app.js") {
      return new Response(SPA_JS, { headers: { "content-type": "text/javascript" } });
    }
    if (path === "/favicon.ico") return new Response(null, { status: 204 });
    if (path !== "/") return new Response("not found", { status: 404 });
    return new Response(
      `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Splitapi</title>
<script type="application/json" id="config">${JSON.stringify({ api: apiOrigin })}</script>
<script src="/app.js" defer></script></head>
<body>
<input id="email"> <input id="password" type="password"> <button id="signin">Sign in</button>
<input id="board" value="Roadmap"> <button id="create">Create board</button>
<input id="title"> <button id="add">Add card</button>
<button id="list">List cards</button> <button id="next">Next page</button>
<button id="renew">Renew session</button> <button id="complete">Complete first</button>
<button id="summary">Board summary</button>
<p id="status"></p>
</body></html>
`,
      { headers: { "content-type": "text/html; charset=utf-8" } },
    );
  });
  spaOrigin = `http://127.0.0.1:${spaServer.addr.port}`;
  return {
    origin: spaOrigin,
    api: apiOrigin,
    calls,
    errors,
    async close() {
      await Promise.all([spaServer.shutdown(), apiServer.shutdown()]);
    },
  };
}

if (import.meta.main) {
  const arg = (name: string) => {
    const at = Deno.args.indexOf(name);
    return at === -1 ? undefined : Number(Deno.args[at + 1]);
  };
  const app = startSplitapi({ port: arg("--port"), apiPort: arg("--api-port") });
  console.error(`splitapi page on ${app.origin}, API on ${app.api}`);
}
