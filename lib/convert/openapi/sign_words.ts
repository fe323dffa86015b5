/**
 * What an operation's path or name says of signing in and up: the words
 * the login finder and the self-sign-up rule read alike.
 *
 * @module
 */
import type { OpenApiOperation } from "./operations.ts";

/**
 * A path or name that says an operation makes an account (`/auth/signup`, `register`).
 *
 * @example
 * ```ts
 * import { SIGN_UP } from "./sign_words.ts";
 * if (!SIGN_UP.test("/auth/sign-up") || SIGN_UP.test("/auth/login")) throw new Error();
 * ```
 */
export const SIGN_UP = /sign[-_]?up|regist/i;

/**
 * Whether `op`'s path or name says it signs in: a sign-in is preferred over a registration that
 * also answers with a token, though the registration sits under `/auth` too (`/auth/signup`
 * beside `/auth/login`).
 *
 * @example
 * ```ts
 * import { namedSignIn } from "./sign_words.ts";
 * const op = (template: string) => ({ template, name: "" }) as never;
 * if (!namedSignIn(op("/auth/login")) || namedSignIn(op("/auth/signup"))) throw new Error();
 * ```
 */
export function namedSignIn(op: OpenApiOperation): boolean {
  const words = `${op.template} ${op.name}`;
  return /log_?in|sign_?in|token|session|auth/i.test(words) && !SIGN_UP.test(words);
}
