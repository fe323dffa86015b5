/**
 * Postman auth (collection, folder or request level; `inherit` already
 * resolved by `input.ts`) → the header or query parameter it sends.
 * Credentials written in the collection become environment variables; ones
 * written as `{{x}}` are read like any variable.
 *
 * @module
 */
import type { PmAuth } from "./model.ts";
import { placeholders, render } from "./template.ts";
import type { Variables } from "./vars.ts";

/** What an auth block adds to a request. */
export interface AuthOut {
  headers: [string, string][];
  query: [string, string][];
  notes: string[];
}

type Resolve = (name: string) => string;

/** A credential: its `{{x}}` rendered, or, written out, an environment variable named `env`. */
function credential(
  value: string,
  env: string,
  what: string,
  resolve: Resolve,
  vars: Variables,
): string {
  if (placeholders(value).length > 0) return render(value, resolve);
  return `\${ENV.${vars.secretEnv(env, what)}}`;
}

/**
 * The header or query parameter `auth` sends.
 *
 * @example
 * ```ts
 * import { authFields } from "./auth.ts";
 * import { Variables } from "./vars.ts";
 * const out = authFields({ type: "bearer", settings: { token: "{{token}}" } }, (n) => `\${vars.${n}}`, new Variables([], []), "collection");
 * if (out.headers[0][1] !== "Bearer ${vars.token}") throw new Error(JSON.stringify(out));
 * ```
 */
export function authFields(
  auth: PmAuth,
  resolve: Resolve,
  vars: Variables,
  from: string,
  token?: string,
): AuthOut {
  const out: AuthOut = { headers: [], query: [], notes: [] };
  const s = auth.settings;
  switch (auth.type) {
    case "noauth":
    case "inherit":
      return out;
    case "bearer":
      out.headers.push([
        "Authorization",
        `Bearer ${
          credential(
            s.token ?? "",
            "API_TOKEN",
            `the bearer token of the ${from} auth`,
            resolve,
            vars,
          )
        }`,
      ]);
      return out;
    case "basic":
      return basic(s, resolve, vars, from, out);
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
      return oauth2(s, resolve, vars, from, out, token);
  }
  out.notes.push(`${from} auth of type "${auth.type}" is not converted: add its header by hand`);
  return out;
}

function basic(
  s: Record<string, string>,
  resolve: Resolve,
  vars: Variables,
  from: string,
  out: AuthOut,
): AuthOut {
  const user = s.username ?? "";
  const password = s.password ?? "";
  out.headers.push([
    "Authorization",
    `Basic \${ENV.${
      vars.secretEnv("BASIC_AUTH", `base64 of "${user}:<password>" for the ${from} auth`)
    }}`,
  ]);
  if (placeholders(user + password).length > 0) {
    out.notes.push(
      `the ${from} basic auth uses ${
        placeholders(user + password).map((n) => `{{${n}}}`).join(", ")
      }: BASIC_AUTH must hold their base64`,
    );
  }
  void resolve;
  return out;
}

function oauth2(
  s: Record<string, string>,
  resolve: Resolve,
  vars: Variables,
  from: string,
  out: AuthOut,
  fetched?: string,
): AuthOut {
  const token = fetched ?? credential(
    s.accessToken ?? "",
    "OAUTH2_ACCESS_TOKEN",
    `an OAuth2 access token for the ${from} auth (its grant "${
      s.grant_type ?? ""
    }" needs a person)`,
    resolve,
    vars,
  );
  const prefix = s.headerPrefix || "Bearer";
  if (s.addTokenTo === "queryParams") out.query.push(["access_token", token]);
  else out.headers.push(["Authorization", `${prefix} ${token}`]);
  return out;
}
