/**
 * Where the browser keeps a cookie an answer set: under its `Path`, or, with none, under the
 * folder of the URL that set it (RFC 6265 §5.1.4's default path), and it sends the cookie only
 * to URLs at or below that path, the longest path first. NZBGet sets `Auth-Token` without a
 * `Path` from `/jsonrpc/version` (the sign-in) and clears it from `/` (each page load): two
 * cookies, and a call to `/jsonrpc` sends the token. A jar keyed by name alone let the page's
 * clearing delete the token, so the requests chrome-har recorded without cookies were sent
 * without it (401).
 *
 * @module
 */
import { isObject, str } from "../_har_fields.ts";
import type { HarRecord } from "../har_model.ts";

/**
 * The path `r`'s answer set the cookie `name` under: its `Path` attribute (the HAR's cookie
 * list, else the `Set-Cookie` header), else the folder of `r`'s URL. A cookie `r`'s own answer
 * does not hold (one a redirect's next answer carried, `redirects.ts`) is at `/`, as before:
 * nothing says where it was set.
 *
 * @example
 * ```ts
 * import { cookiePath } from "./cookie_paths.ts";
 * const r = { url: new URL("http://a.test/jsonrpc/version"), raw: { response: { headers: [
 *   { name: "Set-Cookie", value: "t=1; HttpOnly\nu=2; Path=/" },
 * ] } } };
 * // deno-lint-ignore no-explicit-any
 * if (cookiePath(r as any, "t") !== "/jsonrpc" || cookiePath(r as any, "u") !== "/") throw new Error();
 * ```
 */
export function cookiePath(r: HarRecord, name: string): string {
  // A record built by hand (a test, an example) may have no raw entry: nothing says a path.
  const response = isObject(r.raw?.response) ? r.raw.response : {};
  const listed = Array.isArray(response.cookies)
    ? response.cookies.find((k) => isObject(k) && k.name === name)
    : undefined;
  const given = isObject(listed) ? str(listed.path) ?? "" : headerPath(response.headers, name);
  if (given === undefined) return "/";
  return given.startsWith("/") ? given : defaultPath(r.url.pathname);
}

/**
 * The `Path` attribute of the `Set-Cookie` line that set `name`: `""` for a line without one,
 * `undefined` when no line set it.
 */
function headerPath(headers: unknown, name: string): string | undefined {
  if (!Array.isArray(headers)) return undefined;
  for (const h of headers) {
    if (!isObject(h) || str(h.name)?.toLowerCase() !== "set-cookie") continue;
    for (const line of (str(h.value) ?? "").split("\n")) {
      const [pair, ...attributes] = line.split(";");
      if (pair.slice(0, pair.indexOf("=")).trim() !== name) continue;
      const path = attributes.map((a) => a.trim()).find((a) => /^path=/i.test(a));
      return path?.slice(5).trim() ?? "";
    }
  }
  return undefined;
}

/** RFC 6265's default path: the URL's path up to, not including, its last `/` (`/` at least). */
function defaultPath(pathname: string): string {
  const last = pathname.lastIndexOf("/");
  return last <= 0 ? "/" : pathname.slice(0, last);
}

/**
 * The key a jar holds a cookie under: its name, and its path unless that is `/`.
 *
 * @example
 * ```ts
 * import { jarKey } from "./cookie_paths.ts";
 * if (jarKey("sid", "/") !== "sid" || jarKey("t", "/api") === "t") throw new Error();
 * ```
 */
export function jarKey(name: string, path: string): string {
  return path === "/" ? name : `${name}\u0000${path}`;
}

/**
 * The cookies a jar sends to `pathname`: those whose path is it or above it, the longest path
 * first (as a browser orders them), by name and value.
 *
 * @example
 * ```ts
 * import { jarKey, sentTo } from "./cookie_paths.ts";
 * const jar = new Map([[jarKey("t", "/"), ""], [jarKey("t", "/jsonrpc"), "tok"], [jarKey("x", "/img"), "1"]]);
 * if (sentTo(jar, "/jsonrpc/status").map((k) => k.value).join() !== "tok,") throw new Error();
 * ```
 */
export function sentTo(
  jar: ReadonlyMap<string, string>,
  pathname: string,
): { name: string; value: string }[] {
  const held = [...jar].map(([key, value]) => {
    const [name, path = "/"] = key.split("\u0000");
    return { name, value, path };
  });
  return held
    .filter(({ path }) =>
      path === "/" || pathname === path ||
      pathname.startsWith(path.endsWith("/") ? path : `${path}/`)
    )
    .sort((a, b) => b.path.length - a.path.length)
    .map(({ name, value }) => ({ name, value }));
}
