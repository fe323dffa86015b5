/**
 * A JSON Web Token a lost sign-in answer held, found by its shape.
 *
 * A single-page app posts the typed credentials, stores the token the
 * answer holds and reloads at once: Chromium drops the body of an answer
 * whose page is gone, so both HAR forms keep the status and no text (seen on
 * DbGate 7.2's `POST /auth/login`). When no later answer of the endpoint was
 * recorded, nothing says *where* the answer held the token (`lost_answers.ts`
 * reads it from such a sibling). A JSON Web Token says *what* it is by
 * itself: three base64url parts, the first a JSON header naming its `alg`
 * (RFC 7519 §3, RFC 7515 §4.1.1), always starting `eyJ` (`{"`). So the
 * sign-in captures the live answer's first such text, wherever it stands.
 *
 * The evidence, all of it from the recording: the lost answer succeeded
 * (2xx, not 204) and is the last lost one before a request first sends a
 * JWT (in any header, or as a whole query parameter) that no earlier request
 * sent and no earlier answer held. An opaque token is never read this way:
 * nothing in it tells it from an id the client made.
 *
 * @module
 */

/** A JSON Web Token anywhere in a text (a header's value, an answer's body). */
export const JWT_PATTERN = "eyJ[\\w-]*\\.[\\w-]+\\.[\\w-]*";

/**
 * Whether `value` is a whole JSON Web Token: three base64url parts, the
 * first decoding to a JSON object that names its `alg`.
 *
 * @example
 * ```ts
 * import { isJwt } from "./lost_jwt.ts";
 * const head = btoa(JSON.stringify({ alg: "HS256" })).replace(/=+$/, "");
 * if (!isJwt(`${head}.eyJzdWIiOiJhIn0.c2ln`) || isJwt("eyJ.not.one")) throw new Error();
 * ```
 */
export function isJwt(value: string): boolean {
  if (!new RegExp(`^${JWT_PATTERN}$`).test(value)) return false;
  const head = value.slice(0, value.indexOf(".")).replaceAll("-", "+").replaceAll("_", "/");
  try {
    const header = JSON.parse(atob(head + "=".repeat((4 - head.length % 4) % 4)));
    return typeof header === "object" && header !== null && typeof header.alg === "string";
  } catch {
    return false;
  }
}

/**
 * The JSON Web Tokens a request sends: inside any header's value, or as a
 * whole query parameter.
 *
 * @example
 * ```ts
 * import { sentJwts } from "./lost_jwt.ts";
 * const head = btoa(JSON.stringify({ alg: "HS256" })).replace(/=+$/, "");
 * const token = `${head}.eyJzdWIiOiJhIn0.c2ln`;
 * const sent = sentJwts({ headers: [{ name: "Authorization", value: `Bearer ${token}` }], url: new URL("http://a.test/") });
 * if (sent[0] !== token) throw new Error();
 * ```
 */
export function sentJwts(
  r: { headers: { name: string; value: string }[]; url: URL },
): string[] {
  const found: string[] = [];
  for (const h of r.headers) {
    for (const m of h.value.matchAll(new RegExp(JWT_PATTERN, "g"))) {
      if (isJwt(m[0])) found.push(m[0]);
    }
  }
  for (const [, v] of r.url.searchParams) if (isJwt(v)) found.push(v);
  return found;
}
