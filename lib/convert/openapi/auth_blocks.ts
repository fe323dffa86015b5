/**
 * One security scheme → the flow format's `auth:` block, its credentials
 * from environment variables: http basic → `basic` (`API_USERNAME`,
 * `API_PASSWORD`), http digest → `digest` (the same names), http bearer
 * (and any other http scheme, with a comment) and openIdConnect → `bearer`
 * (`API_TOKEN`), apiKey → `api_key` with its name and place (`API_KEY`),
 * oauth2 → `auth_oauth2.ts`. A scheme flowrun has no kind for (mutualTLS,
 * an apiKey without a name) gives none.
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";
import { ymap } from "../yaml_out.ts";
import { bearer, type EnvNamer, type MadeBlock } from "./auth_bearer.ts";
import { oauth2Block } from "./auth_oauth2.ts";

export type { EnvNamer, MadeBlock };

const API_KEY_PLACES = new Set(["header", "query", "cookie"]);

/**
 * The `auth:` block of a requirement naming one scheme, with the scopes it lists.
 *
 * @example
 * ```ts
 * import { schemeBlock } from "./auth_blocks.ts";
 * const env = { envVar: (_scheme: string, base: string) => base };
 * const made = schemeBlock(env, "basic", { type: "http", scheme: "Basic" }, []);
 * if (JSON.stringify(made?.block) !== JSON.stringify({ kind: "map", entries: [["basic", { kind: "map",
 *   entries: [["username", "${ENV.API_USERNAME}"], ["password", "${ENV.API_PASSWORD}"]] }]] })) throw new Error();
 * if (schemeBlock(env, "tls", { type: "mutualTLS" }, []) !== undefined) throw new Error();
 * ```
 */
export function schemeBlock(
  env: EnvNamer,
  name: string,
  scheme: Node,
  scopes: string[],
): MadeBlock | undefined {
  const type = String(scheme.type ?? "");
  // OpenAPI 3.1 lets any scheme's requirement list roles; only OAuth2 sends them.
  const roles = type === "oauth2" || scopes.length === 0 ? [] : [
    `the requirement names ${
      scopes.join(", ")
    } for "${name}": roles its credentials must carry, not sent`,
  ];
  let made: MadeBlock | undefined;
  if (type === "apiKey") made = apiKey(env, name, scheme);
  else if (type === "http") made = http(env, name, String(scheme.scheme ?? "").toLowerCase());
  else if (type === "openIdConnect") {
    const what = `an access token of "${name}" (openIdConnect: fetch one and set it)`;
    const got = bearer(env, name, what);
    got.notes.push(`"${name}" is openIdConnect: ${got.token} holds a token got beforehand`);
    made = got;
  } else if (type === "oauth2") made = oauth2Block(env, name, scheme, scopes);
  if (made) made.notes.push(...roles);
  return made;
}

function apiKey(env: EnvNamer, name: string, scheme: Node): MadeBlock | undefined {
  if (typeof scheme.name !== "string" || scheme.name === "") return undefined;
  const place = typeof scheme.in === "string" && API_KEY_PLACES.has(scheme.in)
    ? scheme.in
    : "header";
  const value = env.envVar(name, "API_KEY", `the API key of "${name}" (${place} ${scheme.name})`);
  const block = ymap([["name", scheme.name], ["value", `\${ENV.${value}}`], ["in", place]]);
  return { block: ymap([["api_key", block]]), notes: [] };
}

function http(env: EnvNamer, name: string, httpScheme: string): MadeBlock {
  if (httpScheme === "basic" || httpScheme === "digest") {
    const kind = httpScheme === "basic" ? "http basic" : "http digest";
    const user = env.envVar(name, "API_USERNAME", `the user name of "${name}" (${kind})`);
    const password = env.envVar(name, "API_PASSWORD", `the password of "${name}" (${kind})`);
    const block = ymap([["username", `\${ENV.${user}}`], ["password", `\${ENV.${password}}`]]);
    return { block: ymap([[httpScheme, block]]), notes: [] };
  }
  const made = bearer(env, name, `the bearer token of "${name}"`);
  if (httpScheme !== "bearer") {
    made.notes.push(`"${name}" is http ${httpScheme}: sent as a bearer token; check it`);
  }
  return made;
}
