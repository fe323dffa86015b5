/**
 * Which folders one flow holds for the session a cookie keeps. Newman keeps
 * one cookie jar for the whole run, as it keeps one set of variables: a login
 * whose answer no script reads (no token kept), after which no request sends
 * credentials of its own (no auth, no `Authorization` or `Cookie` header; an importer's
 * placeholder sent as written, header_evidence.ts, is none),
 * leaves its session in that jar, and every request after it, in any folder,
 * sends it. A flow's jar is its own, so the folders from the one that logs in
 * so are one flow; before it, each folder stays a flow of its own (convert.ts
 * joins more for variables).
 *
 * @module
 */
import { isSecretHeader } from "../../secrets/names.ts";
import { sendsPassword } from "./credentials.ts";
import type { PmRequest, PmUnit } from "./model.ts";

/** A script call that keeps a value (`pm.environment.set(`, `postman.setGlobalVariable(`). */
const KEEPS = /\b(?:set|setEnvironmentVariable|setGlobalVariable)\s*\(/;

/** Whether `r` logs in (sends a password) and no test script of it keeps what it answers. */
function cookieLogin(r: PmRequest): boolean {
  if (r.method === "GET" || !sendsPassword(r)) return false;
  return !r.scripts.some((s) => s.listen === "test" && KEEPS.test(s.source));
}

/** Whether `r` sends credentials of its own: an auth, or a header that carries them. */
function credentialed(r: PmRequest): boolean {
  const auth = r.auth !== undefined && r.auth.type !== "noauth";
  return auth || r.headers.some((h) => !h.disabled && !h.asWritten && isSecretHeader(h.key));
}

/**
 * The collection's units grouped into flows: one each, but one for all from
 * the first folder that logs in by a cookie on.
 *
 * @example
 * ```ts
 * import { sessionGroups } from "./cookie_session.ts";
 * const get = { name: "me", folders: [], method: "GET", url: "{{host}}/me", headers: [], scripts: [] };
 * const login = { ...get, name: "login", method: "POST", body: { mode: "raw", raw: '{"password": "pw"}' } };
 * const groups = sessionGroups([{ requests: [get] }, { requests: [login] }, { requests: [get] }]);
 * if (groups.map((g) => g.length).join() !== "1,2") throw new Error();
 * ```
 */
export function sessionGroups(units: PmUnit[]): PmUnit[][] {
  const from = units.findIndex((u) => u.requests.some(cookieLogin));
  const after = from < 0 ? [] : units.slice(from).flatMap((u) => u.requests);
  const login = after.findIndex(cookieLogin);
  if (from < 0 || after.slice(login).some(credentialed)) return units.map((u) => [u]);
  return [...units.slice(0, from).map((u) => [u]), units.slice(from)];
}
