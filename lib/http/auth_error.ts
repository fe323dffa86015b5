/**
 * Why a step's credentials could not be worked out: a token endpoint that
 * refused or failed, a kind this build lacks. Its message names the token
 * URL and the error, never a secret.
 *
 * @module
 */
import { tell, type Told } from "../model/told.ts";

/**
 * An auth failure: the step that needed the credentials fails with it.
 *
 * @example
 * ```ts
 * import { AuthError } from "./auth_error.ts";
 * import { told } from "../model/told.ts";
 * const error = new AuthError("The token request to https://idp.test/token failed.");
 * if (error.code !== "auth" || !(error instanceof Error) || error.told) throw new Error();
 * const made = new AuthError(told`The token request to ${"https://idp.test/token"} failed.`);
 * if (made.told?.values[0] !== "https://idp.test/token" || !made.message.includes("idp.test")) throw new Error();
 * ```
 */
export class AuthError extends Error {
  /** Always `auth`: what reports and the step's failure kind tell apart. */
  readonly code = "auth";
  /**
   * The message as flowrun's words and the values it quotes (a token URL, the server's error),
   * when it was made so: a step masks those values where it shows it, and never the words.
   */
  readonly told: Told | undefined;
  /** An auth failure whose message the step's result shows (values in clear). */
  constructor(message: string | Told) {
    super(typeof message === "string" ? message : tell(message));
    this.name = "AuthError";
    this.told = typeof message === "string" ? undefined : message;
  }
}
