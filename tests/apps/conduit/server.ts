/**
 * Conduit: an in-memory stand-in for the RealWorld ("Conduit") backend, so
 * the migrated Postman suite beside this file (flows/, common/, checks/)
 * runs against the API it was written for without the network (see
 * README.md: the real backend and collection are not available here).
 *
 * It answers the RealWorld spec's endpoints under `/api` with the spec's JSON
 * shapes: users (register, login, current user, update), profiles (read,
 * follow, unfollow), articles (list with `author`, `favorited`, `tag`,
 * `limit`, `offset`; feed; create, read, update, delete; favorite,
 * unfavorite), comments (list, add, delete) and tags. A token is a signed
 * JWT-shaped string (`Authorization: Token <jwt>`); a protected endpoint
 * without one answers `401`; a bad body answers `422` with
 * `{errors: {field: ["message"]}}`; an action on someone else's article or
 * comment answers `403`. Tag lists are kept sorted, as the common backends
 * do (the collection expects `["dragons", "training"]` back for
 * `["training", "dragons"]`).
 *
 * `breakFavoritesCount: true` makes every article carry `favoritesCount` as
 * a string (`"1"`), the deliberate bug the test expects the shared article
 * checks to catch.
 *
 * Run by hand: `deno run --allow-net tests/apps/conduit/server.ts --port 8731`.
 *
 * @module
 */
import { Api, type Call, type ConduitOptions, invalid, type Json, Reply, reply } from "./model.ts";
import { routes } from "./routes.ts";

export type { ConduitOptions };

/** A running Conduit. */
export interface Conduit {
  /** `http://127.0.0.1:PORT`; the API is under `${origin}/api`. */
  origin: string;
  /** `METHOD /path` of every request answered, in order. */
  calls: string[];
  close(): Promise<void>;
}

async function parse(req: Request, api: Api, params: string[], url: URL): Promise<Call> {
  const auth = req.headers.get("authorization") ?? "";
  const name = auth.startsWith("Token ") ? await api.tokens.verify(auth.slice(6)) : undefined;
  if (auth !== "" && name === undefined) {
    throw new Reply(401, { errors: { token: ["is invalid"] } });
  }
  let body: Json = {};
  const raw = await req.text();
  if (raw.trim() !== "") {
    try {
      body = JSON.parse(raw);
    } catch {
      throw invalid("body", "is not JSON");
    }
  }
  const viewer = name === undefined ? undefined : api.users.get(name);
  return { method: req.method, params, query: url.searchParams, body, viewer };
}

/**
 * Starts a fresh Conduit on 127.0.0.1 (an ephemeral port unless told).
 *
 * @example
 * ```ts ignore
 * const conduit = await startConduit();
 * const res = await fetch(`${conduit.origin}/api/tags`);
 * console.log(await res.json()); // { tags: [] }
 * await conduit.close();
 * ```
 */
export function startConduit(options: ConduitOptions = {}): Promise<Conduit> {
  const api = new Api(options);
  const table = routes(api);
  const calls: string[] = [];
  const handle = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    calls.push(`${req.method} ${url.pathname}`);
    const paths = table.filter(([, pattern]) => pattern.test(url.pathname));
    const route = paths.find(([method]) => method === req.method);
    if (!route) return reply(paths.length ? 405 : 404, { errors: { path: ["not found"] } });
    try {
      const params = route[1].exec(url.pathname)!.slice(1).map(decodeURIComponent);
      const [status, body] = await route[2](await parse(req, api, params, url));
      return status === 204 ? new Response(null, { status }) : reply(status, body);
    } catch (e) {
      if (e instanceof Reply) return reply(e.status, e.body);
      throw e;
    }
  };
  return new Promise((resolve) => {
    const server = Deno.serve({
      hostname: "127.0.0.1",
      port: options.port ?? 0,
      onListen: ({ port }) =>
        resolve({
          origin: `http://127.0.0.1:${port}`,
          calls,
          close: () => server.shutdown(),
        }),
    }, handle);
  });
}

if (import.meta.main) {
  const at = Deno.args.indexOf("--port");
  const conduit = await startConduit({ port: at >= 0 ? Number(Deno.args[at + 1]) : 8731 });
  console.log(`Conduit API at ${conduit.origin}/api`);
}
