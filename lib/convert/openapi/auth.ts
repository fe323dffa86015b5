/**
 * An operation's credentials from the document's `securitySchemes`: the
 * operation's `security` (else the document's; `security: []` is none, and
 * a requirement `{}` among the alternatives makes credentials optional),
 * its first alternative. A requirement of one scheme becomes the flow
 * format's `auth:` block (`auth_blocks.ts`, OAuth2 in `auth_oauth2.ts`);
 * one of several schemes at once (`{a: [], b: []}`, all required) cannot
 * be one block, so each scheme's credentials are written into the request
 * as headers, query parameters or cookies, as before blocks existed: http
 * bearer (and oauth2 or openIdConnect) → `Authorization: Bearer
 * ${ENV.API_TOKEN}`, http basic → `Authorization: Basic
 * ${ENV.API_BASIC_AUTH}`, apiKey → its header, query parameter or cookie
 * from `${ENV.API_KEY}`. Each scheme has its own environment variables; a
 * second scheme wanting a name already taken gets it prefixed with its own
 * name (`ADMIN_KEY_API_KEY`). One place (a header, query parameter or
 * cookie, {@linkcode placeOf}) carries one credential: of schemes required
 * together that fill the same place (two oauth2 schemes, both in
 * `Authorization`, on 229 of APIs.guru's documents) the first is sent and
 * the others named in a comment; the flow leaves out a parameter the
 * document also declares there, whose value is the credential.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { envName } from "../names.ts";
import { ownEnvName } from "../shell_env.ts";
import type { YMap } from "../yaml_out.ts";
import { type EnvNamer, schemeBlock } from "./auth_blocks.ts";
import { loginBlock } from "./auth_login.ts";
import { browserHint, schemeScopes } from "./auth_browser.ts";
import { tokenWhat } from "./auth_oauth2.ts";
import { cookiesOnly } from "./cookie_schemes.ts";
import { loginAlternative } from "./login_alternative.ts";
import { optionalBlanket } from "./blanket_requirement.ts";
import type { Login } from "./login.ts";

/** Where an operation's credentials go when no `auth:` block can send them. */
export interface Credentials {
  headers: [string, string][];
  query: [string, string][];
  cookies: [string, string][];
  comments: string[];
}

/** An environment variable the flows read, and what it must hold. */
export interface EnvVar {
  name: string;
  what: string;
}

/** How one operation's step is authorised. */
export interface StepAuth {
  /** It sends no credentials: `security: []`, no security at all, or `{}` first. */
  none: boolean;
  /** The `auth:` block (`{bearer: {token: …}}`) of a requirement of one scheme. */
  block?: YMap;
  /** What to say about the block: above the flow's `auth:` or the step's. */
  notes: string[];
  /** Credentials written into the request (several schemes at once), and the step's comments. */
  credentials: Credentials;
  /** Each place its credentials go, with the scheme that fills it ({@linkcode placeOf}). */
  places: Map<string, string>;
}

/**
 * Where a scheme sends its credential: `header authorization` (http,
 * oauth2, openIdConnect), or an apiKey's `header x-api-key` (header names
 * lower case), `query api_key`, `cookie sid`; none for a scheme of another
 * type.
 *
 * @example
 * ```ts
 * import { placeOf } from "./auth.ts";
 * if (placeOf({ type: "apiKey", in: "header", name: "X-Key" }) !== "header x-key") throw new Error();
 * if (placeOf({ type: "oauth2" }) !== "header authorization") throw new Error();
 * ```
 */
export function placeOf(scheme: Node): string | undefined {
  const type = String(scheme.type ?? "");
  if (type === "apiKey" && typeof scheme.name === "string") {
    if (scheme.in === "query" || scheme.in === "cookie") return `${scheme.in} ${scheme.name}`;
    return `header ${scheme.name.toLowerCase()}`;
  }
  if (type === "http" || type === "oauth2" || type === "openIdConnect") {
    return "header authorization";
  }
  return undefined;
}

/**
 * Takes the place of a scheme's credential in `places`; false, said in a
 * comment, when another scheme of the requirement fills it: one request
 * cannot carry both (and a flow cannot give one header twice).
 */
function fills(places: Map<string, string>, name: string, scheme: Node, comments: string[]) {
  const place = placeOf(scheme);
  if (place === undefined) return true;
  const taken = places.get(place);
  if (taken === undefined) {
    places.set(place, name);
    return true;
  }
  const [where, key] = place.split(" ");
  const shown = where === "header" && key === "authorization" ? "Authorization" : key;
  comments.push(
    `"${name}" sends its credential in ${where} ${shown} too, which "${taken}" fills: left out`,
  );
  return false;
}

/** Gives each scheme its environment variables, once, and each operation its auth. */
export class AuthSchemes implements EnvNamer {
  readonly env = new Map<string, EnvVar>();
  readonly #taken = new Set<string>();
  readonly #scopes = new Map<string, string[]>();

  /**
   * `server`: the document's first server URL (variables at their defaults), for relative URLs;
   * `login`: the document's login, whose token is the credential of the schemes it serves.
   */
  constructor(readonly doc: Node, readonly server?: string, readonly login?: Login) {}

  /**
   * How one operation's step is authorised.
   *
   * @example
   * ```ts
   * import { AuthSchemes } from "./auth.ts";
   * const doc = { security: [{ key: [] }], components: { securitySchemes: {
   *   key: { type: "apiKey", in: "header", name: "X-API-Key" }, jwt: { type: "http", scheme: "bearer" } } } };
   * const auth = new AuthSchemes(doc);
   * const key = auth.forOperation({}).block?.entries[0];
   * if (key?.[0] !== "api_key") throw new Error();
   * const both = auth.forOperation({ security: [{ key: [], jwt: [] }] });
   * if (both.block || both.credentials.headers[1][1] !== "Bearer ${ENV.API_TOKEN}") throw new Error();
   * if (!auth.forOperation({ security: [] }).none) throw new Error();
   * ```
   */
  forOperation(operation: Node): StepAuth {
    const credentials: Credentials = { headers: [], query: [], cookies: [], comments: [] };
    const out: StepAuth = { none: false, notes: [], credentials, places: new Map() };
    const security = Array.isArray(operation.security) ? operation.security : this.doc.security;
    const options = Array.isArray(security) ? security.filter(isNode) : [];
    // Of "any one of these", the one the suite's own login serves (login_alternative.ts).
    const first = loginAlternative(options, new Set(this.login?.schemes.keys()));
    if (!first || Object.keys(first).length === 0) return { ...out, none: true };
    if (this.#givenByLogin(operation, options)) return { ...out, none: true };
    // An open operation offering only the framework's blanket (drf-spectacular's session cookie
    // and basic credentials, which no operation requires) is sent none (blanket_requirement.ts).
    if (optionalBlanket(this.doc, operation, this.login ? [this.login.op.node] : [])) {
      return { ...out, none: true };
    }
    if (options.some((o) => Object.keys(o).length === 0)) {
      credentials.comments.push("credentials are optional for this operation");
    }
    const found = this.#schemes(first, credentials.comments).filter(([name, scheme]) =>
      fills(out.places, name, scheme, credentials.comments)
    );
    if (found.length === 1) {
      const [name, scheme] = found[0];
      const scopes = Array.isArray(first[name]) ? first[name].map(String) : [];
      const made = this.login?.schemes.has(name)
        ? loginBlock(name, scheme, this.login)
        : schemeBlock(this, name, scheme, scopes);
      if (made) return { ...out, block: made.block, notes: made.notes };
    }
    if (found.length > 1) {
      credentials.comments.push(
        `${found.map(([n]) => `"${n}"`).join(" and ")} are required together, which one auth: ` +
          "block cannot send: their credentials are written into the request",
      );
    }
    for (const [name, scheme] of found) this.#add(name, scheme, credentials);
    return out;
  }

  /**
   * Whether the login gives `operation` its credential otherwise: it is the login or its sign-up,
   * which hand it out (what they declare cannot be sent yet), or a session login's cookie jar
   * carries a cookie scheme it accepts (cookie_schemes.ts).
   */
  #givenByLogin(operation: Node, options: Node[]): boolean {
    const { login } = this;
    if (!login) return false;
    if ([login.op, login.register, login.alternate].some((op) => op?.node === operation)) {
      return true;
    }
    return login.session === true && options.some((o) => cookiesOnly(this.doc, o));
  }

  /**
   * The environment variable `base` of a scheme: `base`, or prefixed with the scheme's name
   * when another scheme took `base`.
   *
   * @example
   * ```ts
   * import { AuthSchemes } from "./auth.ts";
   * const auth = new AuthSchemes({});
   * if (auth.envVar("one", "API_KEY", "a key") !== "API_KEY") throw new Error();
   * if (auth.envVar("two", "API_KEY", "a key") !== "TWO_API_KEY") throw new Error();
   * if (auth.envVar("one", "API_KEY", "a key") !== "API_KEY") throw new Error();
   * ```
   */
  envVar(scheme: string, base: string, what: string): string {
    const id = `${scheme}\n${base}`;
    const known = this.env.get(id);
    if (known) return known.name;
    const prefix = envName(scheme) || "SCHEME";
    const own = ownEnvName(base);
    let name = this.#taken.has(own) ? `${prefix}_${base}` : own;
    for (let n = 2; this.#taken.has(name); n++) name = `${prefix}_${n}_${base}`;
    this.#taken.add(name);
    this.env.set(id, { name, what });
    return name;
  }

  /**
   * The scopes the document's operations ask of `scheme`, each once ({@linkcode schemeScopes}).
   *
   * @example
   * ```ts
   * import { AuthSchemes } from "./auth.ts";
   * const auth = new AuthSchemes({ paths: { "/a": { get: { security: [{ o: ["read"] }] } } } });
   * if (auth.scopesOf("o")[0] !== "read" || auth.scopesOf("k").length !== 0) throw new Error();
   * ```
   */
  scopesOf(scheme: string): string[] {
    const known = this.#scopes.get(scheme) ?? schemeScopes(this.doc, scheme);
    this.#scopes.set(scheme, known);
    return known;
  }

  /**
   * The variable of the document's apiKey scheme that sends its key at
   * `place` ({@linkcode placeOf}), for a parameter declared there that
   * the operation's own credentials do not send (Apideck's app id header,
   * Trello's `token` of the other alternative): its value is a key.
   *
   * @example
   * ```ts
   * import { AuthSchemes } from "./auth.ts";
   * const auth = new AuthSchemes({ components: { securitySchemes: {
   *   app: { type: "apiKey", in: "header", name: "X-App-Id" } } } });
   * if (auth.keyAt("header x-app-id")?.env !== "API_KEY" || auth.keyAt("query x") !== undefined) throw new Error();
   * ```
   */
  keyAt(place: string): { scheme: string; env: string } | undefined {
    const schemes = isNode(this.doc.components) && isNode(this.doc.components.securitySchemes)
      ? this.doc.components.securitySchemes
      : {};
    for (const [name, scheme] of Object.entries(schemes)) {
      if (!isNode(scheme) || scheme.type !== "apiKey" || placeOf(scheme) !== place) continue;
      const env = this.envVar(
        name,
        "API_KEY",
        `the API key of "${name}" (${scheme.in} ${scheme.name})`,
      );
      return { scheme: name, env };
    }
    return undefined;
  }

  /** The schemes a requirement names, each missing one said in a comment. */
  #schemes(requirement: Node, comments: string[]): [string, Node][] {
    const schemes = isNode(this.doc.components) && isNode(this.doc.components.securitySchemes)
      ? this.doc.components.securitySchemes
      : {};
    const found: [string, Node][] = [];
    for (const name of Object.keys(requirement)) {
      const scheme = Object.hasOwn(schemes, name) ? schemes[name] : undefined;
      if (isNode(scheme)) found.push([name, scheme]);
      else comments.push(`security scheme "${name}" is not in components.securitySchemes`);
    }
    return found;
  }

  /** A scheme's credentials written into the request: a header, query parameter or cookie. */
  #add(name: string, scheme: Node, out: Credentials): void {
    const type = String(scheme.type ?? "");
    if (type === "apiKey" && typeof scheme.name === "string") this.#apiKey(name, scheme, out);
    else if (type === "http" || type === "oauth2" || type === "openIdConnect") {
      this.#token(name, scheme, out);
    } else out.comments.push(`security scheme "${name}" (${type || "no type"}) is not converted`);
  }

  #apiKey(name: string, scheme: Node, out: Credentials): void {
    const where = `${scheme.in} ${scheme.name}`;
    const env = this.envVar(name, "API_KEY", `the API key of "${name}" (${where})`);
    const entry: [string, string] = [String(scheme.name), `\${ENV.${env}}`];
    if (scheme.in === "query") out.query.push(entry);
    else if (scheme.in === "cookie") out.cookies.push(entry);
    else out.headers.push(entry);
  }

  /** http basic, http bearer (any other http scheme is sent as one), oauth2, openIdConnect. */
  #token(name: string, scheme: Node, out: Credentials): void {
    const type = String(scheme.type ?? "");
    const httpScheme = String(scheme.scheme ?? "").toLowerCase();
    if (type === "http" && httpScheme === "basic") {
      const env = this.envVar(name, "API_BASIC_AUTH", `base64 of "user:password" for "${name}"`);
      out.headers.push(["Authorization", `Basic \${ENV.${env}}`]);
      return;
    }
    // Several schemes at once: any oauth2 flow's token is got beforehand, a browser's says where.
    const hint = type === "oauth2"
      ? browserHint(scheme, this.server, this.scopesOf(name))
      : undefined;
    const what = type === "http"
      ? `the bearer token of "${name}"`
      : hint
      ? tokenWhat(name, hint)
      : `an access token of "${name}" (${type}: fetch one and set it)`;
    const env = this.envVar(name, "API_TOKEN", what);
    if (type !== "http") {
      out.comments.push(
        `"${name}" is ${type}: ${env} holds a token got beforehand${hint ? ` (${hint})` : ""}`,
      );
    } else if (httpScheme !== "bearer") {
      out.comments.push(`"${name}" is http ${httpScheme}: sent as a bearer token; check it`);
    }
    out.headers.push(["Authorization", `Bearer \${ENV.${env}}`]);
  }
}
