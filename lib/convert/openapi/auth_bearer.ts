/**
 * What every scheme's block is made with: the environment variables it
 * reads, named per scheme, and the `bearer` block from a variable that
 * http bearer, openIdConnect and an oauth2 scheme a person must sign in to
 * share.
 *
 * @module
 */
import { type YMap, ymap } from "../yaml_out.ts";

/** Names the environment variables of a scheme; knows the document's first server. */
export interface EnvNamer {
  /** The variable `base` of `scheme` (`API_TOKEN`, or `ADMIN_API_TOKEN` when taken). */
  envVar(scheme: string, base: string, what: string): string;
  /** The document's first server URL, its variables at their defaults. */
  readonly server?: string;
  /** The scopes the document's operations ask of `scheme` (`auth_browser.ts`). */
  scopesOf?(scheme: string): string[];
}

/** An `auth:` block, and what to say about it in a comment. */
export interface MadeBlock {
  block: YMap;
  notes: string[];
}

/**
 * A `bearer` block from a variable, and that variable's name.
 *
 * @example
 * ```ts
 * import { bearer } from "./auth_bearer.ts";
 * const made = bearer({ envVar: (_s: string, base: string) => base }, "jwt", "a token");
 * if (made.block.entries[0][0] !== "bearer" || made.token !== "API_TOKEN") throw new Error();
 * ```
 */
export function bearer(env: EnvNamer, name: string, what: string): MadeBlock & { token: string } {
  const token = env.envVar(name, "API_TOKEN", what);
  return {
    block: ymap([["bearer", ymap([["token", `\${ENV.${token}}`]])]]),
    notes: [],
    token,
  };
}
