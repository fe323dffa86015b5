/**
 * A login whose page sets two cookies, as Icinga Web 2's does (`_chc` and the session): the
 * stand-in server and the recorded values the lost-cookie tests share
 * (har_lost_set_cookie_test.ts, har_held_cookies_test.ts). The post needs the session cookie, the
 * form's token computed for that session, and the password.
 */
import { htmlPage } from "./form_pages.ts";

/** The session id, the form token and the origin the recordings hold. */
export const SID = "5f1c2d3e4a5b6c7d8e9f0a1b2c3d4e5f";
export const TOKEN = "9a8b7c6d5e4f30211203f4e5d6c7b8a9";
export const ORIGIN = "http://127.0.0.1:8300";

/** The login page's form, its token computed for the page's session. */
export function loginForm(token: string): string {
  return `<form method="post" action="/login"><input name="user"><input type="password" name="password"><input type="hidden" name="CSRFToken" value="${token}"></form>`;
}

/** The stand-in: the page sets `_chc` and a session with its form token; the login needs both. */
export function twoCookieLogin(password: string) {
  const tokens = new Map<string, string>();
  const signedIn = new Set<string>();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const sid = /(?:^|; )sid=(\w+)/.exec(req.headers.get("cookie") ?? "")?.[1] ?? "";
    if (url.pathname === "/login" && req.method === "GET") {
      const fresh = crypto.randomUUID().replaceAll("-", "");
      const token = crypto.randomUUID().replaceAll("-", "");
      tokens.set(fresh, token);
      const res = htmlPage(url.origin, 200, loginForm(token));
      res.headers.append("set-cookie", "_chc=1; path=/");
      res.headers.append("set-cookie", `sid=${fresh}; path=/; HttpOnly`);
      return res;
    }
    if (url.pathname === "/login" && req.method === "POST") {
      const form = new URLSearchParams(await req.text());
      if (!tokens.has(sid) || form.get("CSRFToken") !== tokens.get(sid)) {
        return htmlPage(url.origin, 500, "invalid CSRF token");
      }
      if (form.get("password") !== password) return htmlPage(url.origin, 403, "wrong");
      signedIn.add(sid);
      return htmlPage(url.origin, 302, "", "/home");
    }
    if (url.pathname === "/home" && signedIn.has(sid)) return htmlPage(url.origin, 200, "home");
    return htmlPage(url.origin, 401, "sign in");
  });
  const { port } = server.addr as Deno.NetAddr;
  return { origin: `http://127.0.0.1:${port}`, close: () => server.shutdown() };
}
