/**
 * A cookie jar that behaves like a browser's (RFC 6265bis): cookies a
 * response sets are kept by domain and path until they expire, and sent back
 * on the requests they match. As browsers do, it refuses a cookie for a
 * public suffix (`Domain=com`, `co.uk`, `github.io`, from the Public Suffix
 * List), one marked `Secure` from a plain-http origin, and `__Secure-` and
 * `__Host-` cookies that break their prefix's rules; `Secure` cookies go only
 * to secure origins (https, and loopback hosts, which browsers treat as
 * secure). Flows opt into one (`options: {cookie_jar: true}` or
 * `--cookie-jar`); each flow run has its own, so flows still share no state.
 *
 * @module
 */
import { type OnDemand, onDemand } from "../_util/on_demand.ts";
import { parseSetCookie, type SetCookie } from "./response.ts";

/**
 * The Public Suffix List (the `tldts` package, updated with the list), loaded
 * the first time a jar is used: most runs keep no cookies and never pay for
 * the list.
 *
 * @example
 * ```ts
 * import { publicSuffixes } from "./cookie_jar.ts";
 * const psl = await publicSuffixes.load();
 * if (psl.getPublicSuffix("a.b.co.uk", { allowPrivateDomains: true }) !== "co.uk") throw new Error();
 * ```
 */
export const publicSuffixes: OnDemand<typeof import("tldts")> = onDemand(
  "The Public Suffix List",
  () => import("tldts"),
);

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
 * Cookies kept across the requests of one flow run. The Public Suffix List
 * is loaded on first use: {@linkcode CookieJar.store} throws `ModuleNeeded`
 * until `publicSuffixes.load()` has resolved (the runner awaits it before a
 * step that uses a jar).
 *
 * @example
 * ```ts
 * import { CookieJar, publicSuffixes } from "./cookie_jar.ts";
 * await publicSuffixes.load();
 * const jar = new CookieJar();
 * jar.store("https://app.test/login", ["sid=s1; Path=/; Secure; HttpOnly", "pref=dark; Path=/settings"]);
 * if (jar.header("https://app.test/items") !== "sid=s1") throw new Error(jar.header("https://app.test/items"));
 * if (jar.header("https://app.test/settings/x") !== "pref=dark; sid=s1") throw new Error();
 * if (jar.header("http://app.test/items") !== undefined) throw new Error("Secure cookies need https");
 * if (jar.header("https://other.test/") !== undefined) throw new Error();
 * jar.store("https://shop.example.co.uk/", ["all=1; Domain=co.uk"]);
 * if (jar.header("https://bank.example2.co.uk/") !== undefined) throw new Error("a public suffix");
 * jar.store("https://app.test/logout", ["sid=; Max-Age=0; Path=/"]);
 * if (jar.header("https://app.test/items") !== undefined) throw new Error();
 * ```
 */
export class CookieJar {
  readonly #cookies: Stored[] = [];
  #counter = 0;

  /** A jar that reads the time from `now` (a test's clock). */
  constructor(readonly now: () => number = Date.now) {}

  /** Keeps the cookies a response to `url` sets (its `Set-Cookie` lines). */
  store(url: string, setCookies: readonly string[]): void {
    if (setCookies.length === 0) return;
    const psl = publicSuffixes.get();
    const u = new URL(url);
    const origin = { host: u.hostname.toLowerCase(), secure: isSecureOrigin(u) };
    for (const line of setCookies) {
      const cookie = parse(line, origin, defaultPath(u.pathname), this.now(), this.#counter++, psl);
      if (!cookie || this.#shadowsSecure(cookie, origin.secure)) continue;
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
    const matching = this.#matching(url);
    return matching.length === 0
      ? undefined
      : matching.map((c) => `${c.name}=${c.value}`).join("; ");
  }

  /**
   * The values of the cookies the jar would send to `url`, by name (the one
   * sent first of a name wins, as a server reading the header takes it).
   *
   * @example
   * ```ts
   * import { CookieJar, publicSuffixes } from "./cookie_jar.ts";
   * await publicSuffixes.load();
   * const jar = new CookieJar();
   * jar.store("http://127.0.0.1/login", ["sid=s1; Path=/"]);
   * if (jar.values("http://127.0.0.1/items").sid !== "s1") throw new Error();
   * ```
   */
  values(url: string): Record<string, string> {
    const out: Record<string, string> = {};
    for (const c of this.#matching(url)) if (!Object.hasOwn(out, c.name)) out[c.name] = c.value;
    return out;
  }

  /** The cookies for a request to `url`, in the order browsers send them. */
  #matching(url: string): Stored[] {
    if (this.#cookies.length === 0) return [];
    const u = new URL(url);
    const host = u.hostname.toLowerCase();
    const secure = isSecureOrigin(u);
    const now = this.now();
    const matching = this.#cookies.filter((c) =>
      (c.expires === undefined || c.expires > now) &&
      (c.hostOnly ? host === c.domain : domainMatch(host, c.domain)) &&
      pathMatch(u.pathname || "/", c.path) &&
      (!c.secure || secure)
    );
    // Longer paths first, then older cookies first, as browsers send them.
    return matching.sort((a, b) => b.path.length - a.path.length || a.created - b.created);
  }

  /**
   * An insecure origin may not overwrite (or shadow) a `Secure` cookie of the
   * same name whose domain and path overlap its own (RFC 6265bis 5.7, step 16).
   */
  #shadowsSecure(cookie: Stored, secureOrigin: boolean): boolean {
    if (secureOrigin || cookie.secure) return false;
    return this.#cookies.some((c) =>
      c.secure && c.name === cookie.name &&
      (domainMatch(c.domain, cookie.domain) || domainMatch(cookie.domain, c.domain)) &&
      pathMatch(cookie.path, c.path)
    );
  }
}

/**
 * https, and loopback hosts over plain http: browsers treat `localhost` and
 * 127.0.0.0/8 and ::1 as secure contexts, so Secure cookies work in local tests.
 */
function isSecureOrigin(url: URL): boolean {
  if (url.protocol === "https:" || url.protocol === "wss:") return true;
  const host = url.hostname.toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || host === "[::1]" ||
    /^127\.\d+\.\d+\.\d+$/.test(host);
}

type Psl = typeof import("tldts");

/** A `Set-Cookie` line as the cookie to keep, or `undefined` when a browser would refuse it. */
function parse(
  line: string,
  origin: { host: string; secure: boolean },
  path: string,
  now: number,
  created: number,
  psl: Psl,
): Stored | undefined {
  const parsed = parseSetCookie(line);
  if (!parsed || parsed.name === "") return undefined;
  const { name, raw, cookie: attributes } = parsed;
  // A Secure cookie from a plain-http origin is ignored (RFC 6265bis 5.7, step 10).
  if (attributes.secure && !origin.secure) return undefined;
  const domain = domainFor(attributes.domain, origin.host, psl);
  if (domain === null) return undefined;
  const cookie: Stored = {
    name,
    value: raw,
    domain: domain ?? origin.host,
    hostOnly: domain === undefined,
    path: attributes.path?.startsWith("/") ? attributes.path : path,
    secure: attributes.secure,
    created,
  };
  if (!prefixAllows(name, cookie, origin.secure, attributes.path)) return undefined;
  const expires = expiryOf(attributes, now);
  if (expires !== undefined) cookie.expires = expires;
  return cookie;
}

/**
 * The domain a `Domain` attribute gives a cookie: `undefined` for a host-only
 * cookie (no attribute, or a public suffix set by that very host), `null`
 * when the cookie is refused.
 */
function domainFor(
  attribute: string | undefined,
  host: string,
  psl: Psl,
): string | null | undefined {
  const domain = attribute ? canonicalDomain(attribute) : undefined;
  if (!domain) return domain;
  // A public suffix is a domain for nobody: only its own host may set a (host-only) cookie
  // there (RFC 6265bis 5.7, step 9); the private section counts too (github.io), as browsers
  // count it.
  // The list ignores a trailing dot (`co.uk.` is `co.uk`): compare without it, or the
  // fully qualified spelling of a public suffix would pass as a site's domain.
  const suffix = psl.getPublicSuffix(domain, { allowPrivateDomains: true });
  if (suffix === domain.replace(/\.+$/, "")) return domain === host ? undefined : null;
  // A response may not set a cookie for another site.
  return domainMatch(host, domain) ? domain : null;
}

/** When the cookie expires: Max-Age wins over Expires; zero or less removes the cookie. */
function expiryOf(attributes: SetCookie, now: number): number | undefined {
  if (attributes.max_age !== undefined) {
    return attributes.max_age <= 0 ? 0 : now + attributes.max_age * 1000;
  }
  if (attributes.expires === undefined) return undefined;
  const t = Date.parse(attributes.expires);
  return Number.isNaN(t) ? undefined : t;
}

/**
 * The cookie name prefixes (RFC 6265bis 4.1.3, matched case-insensitively as
 * browsers do): `__Secure-` needs `Secure` from a secure origin; `__Host-`
 * also no `Domain` and `Path=/`, so only its own host ever sees it.
 */
function prefixAllows(
  name: string,
  cookie: Stored,
  secureOrigin: boolean,
  pathAttribute: string | undefined,
): boolean {
  const lower = name.toLowerCase();
  if (lower.startsWith("__secure-")) return cookie.secure && secureOrigin;
  if (lower.startsWith("__host-")) {
    return cookie.secure && secureOrigin && cookie.hostOnly && pathAttribute === "/";
  }
  return true;
}

/**
 * A `Domain` attribute as a host name (leading dot dropped, lower case,
 * IDNA as URLs spell it); `null` when it is no host name at all.
 */
function canonicalDomain(value: string): string | null {
  const bare = value.trim().replace(/^\./, "").toLowerCase();
  if (bare === "") return null;
  if (/^[a-z0-9.-]+$/.test(bare)) return bare;
  try {
    const host = new URL(`http://${bare}/`).hostname;
    return host === "" ? null : host;
  } catch {
    return null;
  }
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
