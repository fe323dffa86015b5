/**
 * An operation's credentials from the document's `securitySchemes`: the
 * operation's `security` (else the document's; `security: []` is none, and
 * a requirement `{}` among the alternatives makes credentials optional),
 * its first alternative, every scheme of it: http bearer (and oauth2 or
 * openIdConnect, whose token the user fetches) → `Authorization: Bearer
 * ${ENV.API_TOKEN}`, http basic → `Authorization: Basic ${ENV.API_BASIC_AUTH}`,
 * apiKey → its header, query parameter or cookie from `${ENV.API_KEY}`.
 * Each scheme has its own environment variable; a second scheme of the
 * same kind is named for its scheme (`ADMIN_KEY_API_KEY`).
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import { envName } from "../names.ts";

/** Where an operation's credentials go. */
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

/** Gives each scheme its environment variable, once. */
export class AuthSchemes {
  readonly env = new Map<string, EnvVar>();
  readonly #taken = new Set<string>();

  constructor(readonly doc: Node) {}

  /**
   * The credentials one operation sends.
   *
   * @example
   * ```ts
   * import { AuthSchemes } from "./auth.ts";
   * const doc = { security: [{ key: [] }], components: { securitySchemes: {
   *   key: { type: "apiKey", in: "header", name: "X-API-Key" }, jwt: { type: "http", scheme: "bearer" } } } };
   * const auth = new AuthSchemes(doc);
   * if (auth.credentials({}).headers[0][1] !== "${ENV.API_KEY}") throw new Error();
   * if (auth.credentials({ security: [{ jwt: [] }] }).headers[0][1] !== "Bearer ${ENV.API_TOKEN}") throw new Error();
   * if (auth.credentials({ security: [] }).headers.length !== 0) throw new Error();
   * ```
   */
  credentials(operation: Node): Credentials {
    const out: Credentials = { headers: [], query: [], cookies: [], comments: [] };
    const security = Array.isArray(operation.security) ? operation.security : this.doc.security;
    const options = Array.isArray(security) ? security.filter(isNode) : [];
    const first = options[0];
    if (!first) return out;
    if (Object.keys(first).length === 0) return out;
    if (options.some((o) => Object.keys(o).length === 0)) {
      out.comments.push("credentials are optional for this operation");
    }
    const schemes = isNode(this.doc.components) && isNode(this.doc.components.securitySchemes)
      ? this.doc.components.securitySchemes
      : {};
    for (const name of Object.keys(first)) {
      const scheme = Object.hasOwn(schemes, name) ? schemes[name] : undefined;
      if (!isNode(scheme)) {
        out.comments.push(`security scheme "${name}" is not in components.securitySchemes`);
        continue;
      }
      this.#add(name, scheme, out);
    }
    return out;
  }

  #add(name: string, scheme: Node, out: Credentials): void {
    const type = String(scheme.type ?? "");
    if (type === "apiKey" && typeof scheme.name === "string") this.#apiKey(name, scheme, out);
    else if (type === "http" || type === "oauth2" || type === "openIdConnect") {
      this.#token(name, type, String(scheme.scheme ?? "").toLowerCase(), out);
    } else out.comments.push(`security scheme "${name}" (${type || "no type"}) is not converted`);
  }

  #apiKey(name: string, scheme: Node, out: Credentials): void {
    const where = `${scheme.in} ${scheme.name}`;
    const env = this.#env(name, "API_KEY", `the API key of "${name}" (${where})`);
    const entry: [string, string] = [String(scheme.name), `\${ENV.${env}}`];
    if (scheme.in === "query") out.query.push(entry);
    else if (scheme.in === "cookie") out.cookies.push(entry);
    else out.headers.push(entry);
  }

  /** http basic, http bearer (any other http scheme is sent as one), oauth2, openIdConnect. */
  #token(name: string, type: string, httpScheme: string, out: Credentials): void {
    if (type === "http" && httpScheme === "basic") {
      const env = this.#env(name, "API_BASIC_AUTH", `base64 of "user:password" for "${name}"`);
      out.headers.push(["Authorization", `Basic \${ENV.${env}}`]);
      return;
    }
    const what = type === "http"
      ? `the bearer token of "${name}"`
      : `an access token of "${name}" (${type}: fetch one and set it)`;
    const env = this.#env(name, "API_TOKEN", what);
    if (type !== "http") {
      out.comments.push(`"${name}" is ${type}: ${env} holds a token got beforehand`);
    } else if (httpScheme !== "bearer") {
      out.comments.push(`"${name}" is http ${httpScheme}: sent as a bearer token; check it`);
    }
    out.headers.push(["Authorization", `Bearer \${ENV.${env}}`]);
  }

  /** The environment variable of a scheme: `base`, or named for the scheme when `base` is taken. */
  #env(scheme: string, base: string, what: string): string {
    const known = this.env.get(scheme);
    if (known) return known.name;
    const name = this.#taken.has(base) ? `${envName(scheme)}_${base}` : base;
    this.#taken.add(name);
    this.env.set(scheme, { name, what });
    return name;
  }
}
