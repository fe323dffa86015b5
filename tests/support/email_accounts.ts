/**
 * A stand-in API of accounts kept in memory, signed up at `POST /auth/register` and signed in at
 * `POST /auth/login` with `{email, password}`; the token is the account's email. Every other
 * request needs that token (401 without it) and is answered by the test's own `rest`.
 */
import { serveStandIn, type StandIn } from "./openapi_suite.ts";

/** Answers a signed-in request; `token` is the account's email, `known` says whether one exists. */
export type SignedIn = (
  req: Request,
  pathname: string,
  token: string,
  known: (email: string) => boolean,
) => Response;

/** Starts the stand-in on 127.0.0.1; each request is noted in `seen` as `METHOD /path` (decoded). */
export function emailAccounts(seen: string[], rest: SignedIn): StandIn {
  const accounts = new Map<string, string>();
  return serveStandIn(async (req) => {
    const { pathname } = new URL(req.url);
    seen.push(`${req.method} ${decodeURIComponent(pathname)}`);
    const token = req.headers.get("authorization")?.replace(/^Bearer /, "") ?? "";
    if (req.method === "POST" && pathname === "/auth/register") {
      const { email, password } = await req.json();
      accounts.set(email, password);
      return Response.json({ message: "registered" }, { status: 201 });
    }
    if (req.method === "POST" && pathname === "/auth/login") {
      const { email, password } = await req.json();
      if (accounts.get(email) !== password) {
        return Response.json({ message: "no" }, { status: 400 });
      }
      return Response.json({ accessToken: email });
    }
    if (!accounts.has(token)) return Response.json({ message: "Access denied" }, { status: 401 });
    return rest(req, pathname, token, (email) => accounts.has(email));
  });
}
