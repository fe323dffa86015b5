/**
 * A request URL's literal origin read from an environment variable named for
 * its host (`http://localhost:8080/x` → `${ENV.LOCALHOST_URL:-http://localhost:8080}/x`),
 * so that the flow runs against another server without an edit; every URL of
 * that origin reads the same variable.
 *
 * @module
 */
import { snake } from "../names.ts";

/**
 * `url` with its origin read from the variable `origins` names for it, one
 * added for a new origin; `url` as it is when it starts with no origin.
 *
 * @example
 * ```ts
 * import { withOriginEnv } from "./origin_env.ts";
 * const origins = new Map<string, string>();
 * const url = withOriginEnv("http://localhost:8080/api", origins);
 * if (url !== "${ENV.LOCALHOST_URL:-http://localhost:8080}/api") throw new Error(url);
 * if (origins.get("http://localhost:8080") !== "LOCALHOST_URL") throw new Error();
 * ```
 */
export function withOriginEnv(url: string, origins: Map<string, string>): string {
  const origin = url.match(/^https?:\/\/[^/?#$]+/i)?.[0];
  // An origin only partly literal (`http://localhost:${vars.port}`) is kept as written: a
  // variable for its literal part would be cut in the middle of the authority.
  if (!origin || url[origin.length] === "$") return url;
  let env = origins.get(origin);
  if (!env) {
    const host = origin.replace(/^https?:\/\//i, "").replace(/:\d+$/, "");
    env = `${snake(host).toUpperCase() || "API"}_URL`;
    origins.set(origin, env);
  }
  return `\${ENV.${env}:-${origin}}${url.slice(origin.length)}`;
}

/**
 * `raw` with the variables in its literal origin's authority (`http://localhost:{{port}}/x`)
 * replaced by the values `given` knows, so that the origin is one literal and one variable reads
 * it whole; `raw` as written when one of them has no plain value (a script sets it, or none).
 *
 * @example
 * ```ts
 * import { filledAuthority } from "./origin_env.ts";
 * const given = (n: string) => (n === "port" ? "8080" : undefined);
 * const url = filledAuthority("http://localhost:{{port}}/api/{{id}}", given);
 * if (url !== "http://localhost:8080/api/{{id}}") throw new Error(url);
 * if (filledAuthority("http://{{host}}/x", given) !== "http://{{host}}/x") throw new Error();
 * ```
 */
export function filledAuthority(raw: string, given: (name: string) => string | undefined): string {
  const m = raw.match(/^(https?:\/\/)([^/?#]*)/i);
  if (!m || !m[2].includes("{{")) return raw;
  let whole = true;
  const authority = m[2].replace(/\{\{([^{}]+)\}\}/g, (all, name: string) => {
    const value = given(name.trim());
    if (value === undefined || value === "" || /[{}/?#@\s$]/.test(value)) whole = false;
    return value ?? all;
  });
  return whole ? m[1] + authority + raw.slice(m[0].length) : raw;
}
