/**
 * Why a step's credentials could not be worked out: a token endpoint that
 * refused or failed, a kind this build lacks. Its message names the token
 * URL and the error, never a secret.
 *
 * @module
 */

/**
 * An auth failure: the step that needed the credentials fails with it.
 *
 * @example
 * ```ts
 * import { AuthError } from "./auth_error.ts";
 * const error = new AuthError("The token request to https://idp.test/token failed.");
 * if (error.code !== "auth" || !(error instanceof Error)) throw new Error();
 * ```
 */
export class AuthError extends Error {
  /** Always `auth`: what reports and the step's failure kind tell apart. */
  readonly code = "auth";
  /** An auth failure whose message the step's result shows. */
  constructor(message: string) {
    super(message);
    this.name = "AuthError";
  }
}
