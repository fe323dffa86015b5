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
  if (!origin) return url;
  let env = origins.get(origin);
  if (!env) {
    const host = origin.replace(/^https?:\/\//i, "").replace(/:\d+$/, "");
    env = `${snake(host).toUpperCase() || "API"}_URL`;
    origins.set(origin, env);
  }
  return `\${ENV.${env}:-${origin}}${url.slice(origin.length)}`;
}
