/**
 * A cookie jar that behaves like a browser's (RFC 6265): cookies a response
 * sets are kept by domain and path until they expire, and sent back on the
 * requests they match, `Secure` ones only over https. Flows opt into one
 * (`options: {cookie_jar: true}` or `--cookie-jar`); each flow run has its
 * own, so flows still share no state.
 *
 * @module
 */
import { parseSetCookie } from "./response.ts";

interface Stored {
  name: string;
  value: string;
  domain: string;
  /** No `Domain` attribute: sent to exactly the host that set it. */
  hostOnly: boolean;
  path: string;
  secure: boolean;
  /** Milliseconds since the epoch; `undefined` for a session cookie. */
  expires?: number;
  created: number;
}

/**
 * Cookies kept across the requests of one flow run.
 *
 * @example
 * ```ts
 * import { CookieJar } from "./cookie_jar.ts";
 * const jar = new CookieJar();
 * jar.store("https://app.test/login", ["sid=s1; Path=/; Secure; HttpOnly", "pref=dark; Path=/settings"]);
 * if (jar.header("https://app.test/items") !== "sid=s1") throw new Error(jar.header("https://app.test/items"));
 * if (jar.header("https://app.test/settings/x") !== "pref=dark; sid=s1") throw new Error();
 * if (jar.header("http://app.test/items") !== undefined) throw new Error("Secure cookies need https");
 * if (jar.header("https://other.test/") !== undefined) throw new Error();
 * jar.store("https://app.test/logout", ["sid=; Max-Age=0; Path=/"]);
 * if (jar.header("https://app.test/items") !== undefined) throw new Error();
 * ```
 */
export class CookieJar {
  readonly #cookies: Stored[] = [];
  #counter = 0;

  constructor(readonly now: () => number = Date.now) {}

  /** Keeps the cookies a response to `url` sets (its `Set-Cookie` lines). */
  store(url: string, setCookies: readonly string[]): void {
    const u = new URL(url);
    const host = u.hostname.toLowerCase();
    for (const line of setCookies) {
      const cookie = parse(line, host, defaultPath(u.pathname), this.now(), this.#counter++);
      if (!cookie) continue;
      const at = this.#cookies.findIndex((c) =>
        c.name === cookie.name && c.domain === cookie.domain && c.path === cookie.path
      );
      if (at >= 0) {
        cookie.created = this.#cookies[at].created;
        this.#cookies.splice(at, 1);
      }
      if (cookie.expires === undefined || cookie.expires > this.now()) this.#cookies.push(cookie);
    }
  }

  /** The `Cookie` header for a request to `url`, or `undefined` when no cookie matches. */
  header(url: string): string | undefined {
    const u = new URL(url);
    const host = u.hostname.toLowerCase();
    const now = this.now();
    const matching = this.#cookies.filter((c) =>
      (c.expires === undefined || c.expires > now) &&
      (c.hostOnly ? host === c.domain : domainMatch(host, c.domain)) &&
      pathMatch(u.pathname || "/", c.path) &&
      (!c.secure || u.protocol === "https:" || isLoopback(host))
    );
    if (matching.length === 0) return undefined;
    // Longer paths first, then older cookies first, as browsers send them.
    matching.sort((a, b) => b.path.length - a.path.length || a.created - b.created);
    return matching.map((c) => `${c.name}=${c.value}`).join("; ");
  }
}

/** Browsers treat localhost as a secure context, so Secure cookies work in local tests. */
function isLoopback(host: string): boolean {
  return host === "localhost" || host === "127.0.0.1" || host === "[::1]";
}

function parse(
  line: string,
  host: string,
  path: string,
  now: number,
  created: number,
): Stored | undefined {
  const parsed = parseSetCookie(line);
  if (!parsed || parsed.name === "") return undefined;
  const { name, raw, cookie: attributes } = parsed;
  const cookie: Stored = {
    name,
    value: raw,
    domain: host,
    hostOnly: true,
    path: attributes.path?.startsWith("/") ? attributes.path : path,
    secure: attributes.secure,
    created,
  };
  if (attributes.domain) {
    const domain = attributes.domain.replace(/^\./, "").toLowerCase();
    // A response may not set a cookie for another site.
    if (!domainMatch(host, domain)) return undefined;
    cookie.domain = domain;
    cookie.hostOnly = false;
  }
  // Max-Age wins over Expires; zero or less removes the cookie.
  if (attributes.max_age !== undefined) {
    cookie.expires = attributes.max_age <= 0 ? 0 : now + attributes.max_age * 1000;
  } else if (attributes.expires !== undefined) {
    const t = Date.parse(attributes.expires);
    if (!Number.isNaN(t)) cookie.expires = t;
  }
  return cookie;
}

function domainMatch(host: string, domain: string): boolean {
  return host === domain || (host.endsWith(`.${domain}`) && !/^[\d.]+$/.test(host));
}

function pathMatch(path: string, cookiePath: string): boolean {
  return path === cookiePath ||
    (path.startsWith(cookiePath) && (cookiePath.endsWith("/") || path[cookiePath.length] === "/"));
}

/** The default path of a cookie: the request path up to its last `/`. */
function defaultPath(path: string): string {
  if (!path.startsWith("/")) return "/";
  const last = path.lastIndexOf("/");
  return last <= 0 ? "/" : path.slice(0, last);
}
