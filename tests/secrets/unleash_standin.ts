/**
 * A stand-in for the parts of Unleash (the feature flag server) that a flow creating a client
 * token meets, answering as Unleash 8.2.0 answered on the real server (tests/real/unleash.ts):
 * the token's `secret` is `<project>:<environment>.<hash>`, sent back raw in `Authorization`
 * (no scheme), and the answers around it are full of ordinary words (`default`, `development`,
 * `client`, `production`) and timestamps. `/api/admin/echo` also repeats the issued token in the
 * forms a server may derive from it: split on `:` and `.`, URL-encoded, JSON-escaped, as a
 * `Basic` credential, cut short.
 */

/** The admin token the stand-in takes (as `INIT_ADMIN_API_TOKENS` sets it on the real server). */
export const ADMIN_TOKEN = "*:*.flowrun-test-admin-token";

/** The client token the stand-in issues: Unleash's shape, a 56-digit hex hash. */
export const CLIENT_TOKEN =
  "default:development.3b4b7b3ee8de9a4d2cc1d90568e70fdc8d982dd11e387ab4b89085b2";

/** The hash part of {@linkcode CLIENT_TOKEN}, what a split on `.` gives. */
export const TOKEN_HASH = CLIENT_TOKEN.split(".")[1];

/** A running stand-in. */
export interface StandIn {
  origin: string;
  close(): Promise<void>;
}

/** When the stand-in was started: every timestamp it answers is this minute's, as a real one's are. */
function token(createdAt: string, name: string) {
  return {
    tokenName: name,
    environment: "development",
    projects: ["default"],
    secret: CLIENT_TOKEN,
    type: "client",
    alias: null,
    project: "default",
    createdAt,
    secure: false,
  };
}

/** Everything but the token itself, as a server derives it: split, encoded, escaped, cut. */
function echo(): Record<string, string> {
  const [scope, hash] = CLIENT_TOKEN.split(".");
  const [project, environment] = scope.split(":");
  return {
    project,
    environment,
    hash,
    url: `/api/frontend?token=${encodeURIComponent(CLIENT_TOKEN)}`,
    escaped: CLIENT_TOKEN.replaceAll(":", "\\u003a").replaceAll(".", "\\u002e"),
    basic: `Basic ${btoa(CLIENT_TOKEN)}`,
    cut: `token ${CLIENT_TOKEN.slice(0, 30)}…`,
  };
}

/** What the stand-in keeps: when it started, and the names of the tokens made. */
interface State {
  createdAt: string;
  names: string[];
}

async function route(request: Request, state: State): Promise<Response> {
  const { createdAt } = state;
  const { pathname } = new URL(request.url);
  const auth = request.headers.get("authorization");
  if (pathname.startsWith("/api/client/")) {
    if (auth !== CLIENT_TOKEN) return Response.json({ error: "no such token" }, { status: 401 });
    return Response.json({
      version: 2,
      features: [{ name: "checkout", enabled: true, project: "default", type: "release" }],
      query: { project: ["default"], environment: "development", inlineSegmentConstraints: true },
    });
  }
  if (auth !== ADMIN_TOKEN) return Response.json({ error: "no such token" }, { status: 401 });
  if (pathname === "/api/admin/api-tokens") {
    if (request.method === "POST") {
      const { tokenName } = await request.json();
      state.names.push(tokenName);
      return Response.json(token(createdAt, tokenName), { status: 201 });
    }
    return Response.json({
      tokens: ["probe", ...state.names].map((name) => token(createdAt, name)),
    });
  }
  if (pathname === "/api/admin/environments") {
    return Response.json({
      version: 1,
      environments: ["development", "production"].map((name, i) => ({
        name,
        type: name,
        sortOrder: i + 2,
        enabled: true,
      })),
    });
  }
  if (pathname === "/api/admin/projects") {
    return Response.json({
      version: 1,
      projects: [{ name: "Default", id: "default", description: "Default project", createdAt }],
    });
  }
  if (pathname === "/api/admin/echo") {
    // The escapes are JSON's own: the body is written by hand so `\u003a` reaches the client.
    const body = JSON.stringify(echo()).replaceAll("\\\\u", "\\u");
    return new Response(body, { headers: { "content-type": "application/json" } });
  }
  return Response.json({ error: "not found" }, { status: 404 });
}

/** Starts the stand-in on 127.0.0.1, an ephemeral port. */
export function startStandIn(): StandIn {
  const state: State = { createdAt: new Date().toISOString(), names: [] };
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (request) => route(request, state),
  );
  return { origin: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
}
