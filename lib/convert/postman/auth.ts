/**
 * Postman auth (collection, folder or request level; `inherit` already
 * resolved by `input.ts`) → what the step sends: the flow format's own
 * `auth:` block where it has the kind (basic, digest, OAuth2 grants that run
 * unattended, AWS Signature v4), else the header or query parameter
 * (bearer, API key, an OAuth2 token saved in the collection). Secrets
 * written in the collection become environment variables; values written as
 * `{{x}}` are read like any variable; identifiers (a user name, a client id,
 * a region) stay as written, as the flow format allows.
 *
 * @module
 */
import { ymap, type YNode } from "../yaml_out.ts";
import type { PmAuth } from "./model.ts";
import { isUnattended, oauth2Block } from "./oauth2.ts";
import { placeholders, render } from "./template.ts";
import type { Variables } from "./vars.ts";

/** What an auth block adds to a step. */
export interface AuthOut {
  headers: [string, string][];
  query: [string, string][];
  /** The step's `auth:` block, when the flow format has the kind. */
  block?: YNode;
  notes: string[];
  /**
   * The auth's header may render empty (a token left empty): the step leaves it out then, as
   * Newman sends no token header (`omit_empty_headers`).
   */
  omitEmpty?: boolean;
}

/** How a `{{x}}` reads. */
export type Resolve = (name: string, written?: string) => string;

/**
 * A secret: its `{{x}}` rendered, or, written out, an environment variable
 * named `env` (the value is never copied).
 *
 * @example
 * ```ts
 * import { credential } from "./auth.ts";
 * import { Variables } from "./vars.ts";
 * const vars = new Variables([], []);
 * if (credential("s3cret", "API_KEY", "a key", (n) => n, vars) !== "${ENV.API_KEY}") throw new Error();
 * if (credential("{{k}}", "API_KEY", "a key", (n) => `\${vars.${n}}`, vars) !== "${vars.k}") throw new Error();
 * if (credential("", "API_KEY", "a key", (n) => n, vars) !== "${ENV.API_KEY_2:-}") throw new Error();
 * ```
 */
export function credential(
  value: string,
  env: string,
  what: string,
  resolve: Resolve,
  vars: Variables,
): string {
  if (placeholders(value).length > 0) return render(value, resolve);
  // A field the collection leaves empty is sent empty, as Newman does, unless the user sets one
  // (shared collections leave a key to fill that way): the empty fallback, never a refusal.
  if (value === "") return `\${ENV.${vars.secretEnv(env, `${what}, empty unless set`)}:-}`;
  return `\${ENV.${vars.secretEnv(env, what, value)}}`;
}

/** `username` and `password` (basic, digest): the name as written, the password a secret. */
function userPassword(
  s: Record<string, string>,
  kind: string,
  resolve: Resolve,
  vars: Variables,
  from: string,
): YNode {
  return ymap([[
    kind,
    ymap([
      ["username", render(s.username ?? "", resolve)],
      [
        "password",
        credential(
          s.password ?? "",
          `${kind.toUpperCase()}_PASSWORD`,
          `the ${kind} password of the ${from} auth`,
          resolve,
          vars,
        ),
      ],
    ]),
  ]]);
}

/** Postman's `awsv4` → `aws_sigv4`: region and service as written, the keys secrets. */
function awsBlock(
  s: Record<string, string>,
  resolve: Resolve,
  vars: Variables,
  from: string,
): YNode {
  const secret = (key: string, env: string) =>
    s[key]
      ? credential(s[key], env, `the AWS ${key} of the ${from} auth`, resolve, vars)
      : undefined;
  return ymap([[
    "aws_sigv4",
    ymap([
      ["region", render(s.region || "us-east-1", resolve)],
      ["service", render(s.service || "execute-api", resolve)],
      ["access_key_id", secret("accessKey", "AWS_ACCESS_KEY_ID")],
      ["secret_access_key", secret("secretKey", "AWS_SECRET_ACCESS_KEY")],
      ["session_token", secret("sessionToken", "AWS_SESSION_TOKEN")],
    ]),
  ]]);
}

/**
 * What `auth` makes the step send.
 *
 * @example
 * ```ts
 * import { authFields } from "./auth.ts";
 * import { Variables } from "./vars.ts";
 * const vars = new Variables([], []);
 * const out = authFields({ type: "bearer", settings: { token: "{{token}}" } }, (n) => `\${vars.${n}}`, vars, "collection");
 * if (out.headers[0][1] !== "Bearer ${vars.token}") throw new Error(JSON.stringify(out));
 * const basic = authFields({ type: "basic", settings: { username: "ann", password: "pw" } }, (n) => n, vars, "collection");
 * if (basic.block === undefined || basic.headers.length !== 0) throw new Error();
 * ```
 */
export function authFields(auth: PmAuth, resolve: Resolve, vars: Variables, from: string): AuthOut {
  const out: AuthOut = { headers: [], query: [], notes: [] };
  const s = auth.settings;
  switch (auth.type) {
    case "noauth":
    case "inherit":
      return out;
    case "basic":
    case "digest":
      return { ...out, block: userPassword(s, auth.type, resolve, vars, from) };
    case "awsv4":
      return { ...out, block: awsBlock(s, resolve, vars, from) };
    case "bearer":
      return bearer(s, resolve, vars, from, out);
    case "apikey": {
      const key = render(s.key || "X-API-Key", resolve);
      const value = credential(
        s.value ?? "",
        "API_KEY",
        `the API key "${s.key ?? ""}" of the ${from} auth`,
        resolve,
        vars,
      );
      (s.in === "query" ? out.query : out.headers).push([key, value]);
      return out;
    }
    case "oauth2":
      return isUnattended(auth)
        ? { ...out, block: oauth2Block(auth, resolve, vars, from) }
        : savedToken(s, resolve, vars, from, out);
  }
  out.notes.push(`${from} auth of type "${auth.type}" is not converted: add its header by hand`);
  return out;
}

/**
 * A bearer token's header. Newman sends none while the token is empty (a literal left empty, a
 * variable defined empty, one a script sets only later): such a header is marked `omitEmpty`, so
 * the step leaves it out while the token renders empty and sends it once the user sets one.
 */
function bearer(
  s: Record<string, string>,
  resolve: Resolve,
  vars: Variables,
  from: string,
  out: AuthOut,
): AuthOut {
  const token = credential(
    s.token ?? "",
    "API_TOKEN",
    `the bearer token of the ${from} auth`,
    resolve,
    vars,
  );
  out.headers.push(["Authorization", `Bearer ${token}`]);
  if (vars.mayBeEmpty(token) || keptEmpty(token, vars)) out.omitEmpty = true;
  return out;
}

/**
 * A token a script's capture sets only when the answer holds it (`json.authorization.split(" ")[1]`
 * throws in Newman otherwise), keeping the variable's value, which the files give empty: empty
 * until a login succeeds, so Newman sends no header.
 */
function keptEmpty(token: string, vars: Variables): boolean {
  const m = /^\$\{steps\.[^.}]+\.capture\.([A-Za-z0-9_-]+)\}$/.exec(token);
  return m !== null && vars.kept.has(token) && vars.mayBeEmpty(`\${vars.${m[1]}}`);
}

/** An OAuth2 grant that needs a person: the token it gave, from the environment. */
function savedToken(
  s: Record<string, string>,
  resolve: Resolve,
  vars: Variables,
  from: string,
  out: AuthOut,
): AuthOut {
  // A query has no `omit_empty_headers`: a token sent empty stays out of it, as Newman's.
  const query = s.addTokenTo === "queryParams";
  if (query && vars.sentEmpty(s.accessToken ?? "")) return out;
  const token = credential(
    s.accessToken ?? "",
    "OAUTH2_ACCESS_TOKEN",
    `an OAuth2 access token for the ${from} auth (its grant "${
      s.grant_type ?? ""
    }" needs a person)`,
    resolve,
    vars,
  );
  if (query) {
    out.query.push(["access_token", token]);
    return out;
  }
  out.headers.push(["Authorization", `${s.headerPrefix || "Bearer"} ${token}`]);
  if (vars.mayBeEmpty(token)) out.omitEmpty = true;
  return out;
}
