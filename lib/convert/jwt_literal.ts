/**
 * JSON Web Tokens written out in what a converter reads. A token of that shape is a credential by
 * what it is (a server signed it for someone), whatever key or header it stands under, and the CLI
 * masks every one in the files it writes: a flow that kept one as written sent the three
 * characters `***`. Each converter reads such a token from a variable instead.
 *
 * @module
 */

/** A header and a payload, base64url JSON objects both (so `eyJ`), and a signature. */
export const JWT_LITERAL: RegExp =
  /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*/g;

/**
 * Whether a value is a JSON Web Token.
 *
 * @example
 * ```ts
 * import { isJwt } from "./jwt_literal.ts";
 * if (!isJwt("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhIn0.c2ln") || isJwt("eyJhbGciOiJIUzI1NiJ9")) throw new Error();
 * ```
 */
export function isJwt(value: string): boolean {
  return new RegExp(`^(?:${JWT_LITERAL.source})$`).test(value.trim());
}

/**
 * The JSON Web Tokens standing in `texts`, each once, in order.
 *
 * @example
 * ```ts
 * import { jwtsIn } from "./jwt_literal.ts";
 * const t = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhIn0.c2ln";
 * if (jwtsIn([`{"grant":"${t}"}`, t, "eyJ"]).join() !== t) throw new Error();
 * ```
 */
export function jwtsIn(texts: readonly string[]): string[] {
  const found = new Set<string>();
  for (const text of texts) {
    if (text.includes("eyJ")) { for (const m of text.matchAll(JWT_LITERAL)) found.add(m[0]); }
  }
  return [...found];
}
