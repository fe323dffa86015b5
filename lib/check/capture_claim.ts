/**
 * A capture's `claim`: one claim of the JWT its source gives. A login that
 * answers only `{token}` still says who signed in, inside the token: a JWT
 * (RFC 7519) is three base64url parts, the second a JSON object of claims,
 * `sub` the account it was issued to. A later request that needs the
 * account's own id (`/users/{id}`, refused 403 for anyone else's) can take
 * it from there, without verifying the signature: the server that signed
 * it is the one the flow sends it back to.
 *
 * @module
 */
import { ownWords as own, tell, type Told, told } from "../model/told.ts";

/** A claim's value, or why there is none (a sentence without its final period). */
export type Claimed = { value: unknown; why?: undefined } | {
  value?: undefined;
  why: string;
  said: Told;
};

/** Why there is no claim, said in flowrun's words only: the token itself is never quoted. */
function none(said: Told): Claimed {
  return { why: tell(said), said };
}

/** The claims of a JWT's payload, or undefined when `token` is not one. */
function payloadOf(token: string): Record<string, unknown> | undefined {
  const parts = token.trim().replace(/^bearer\s+/i, "").split(".");
  if (parts.length !== 3 || !/^[A-Za-z0-9_-]+$/.test(parts[1])) return undefined;
  try {
    const base64 = parts[1].replace(/-/g, "+").replace(/_/g, "/");
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const claims = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    return claims !== null && typeof claims === "object" && !Array.isArray(claims)
      ? claims
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The claim `name` of the JWT `value` holds (a `Bearer ` before it is
 * allowed), or of a list of names the first it holds, or why there is none.
 *
 * @example
 * ```ts
 * import { jwtClaim } from "./capture_claim.ts";
 * const part = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, "");
 * const jwt = `${part({ alg: "HS256" })}.${part({ sub: "42", name: "ann" })}.c2ln`;
 * if (jwtClaim(jwt, "sub").value !== "42" || jwtClaim(`Bearer ${jwt}`, "name").value !== "ann") {
 *   throw new Error();
 * }
 * if (jwtClaim(jwt, "iat").why !== 'the JWT has no claim "iat"') throw new Error();
 * if (jwtClaim("opaque", "sub").why !== "it is not a JWT") throw new Error();
 * if (jwtClaim(jwt, ["user_id", "name", "sub"]).value !== "ann") throw new Error();
 * ```
 */
export function jwtClaim(value: unknown, name: string | readonly string[]): Claimed {
  const claims = typeof value === "string" ? payloadOf(value) : undefined;
  if (!claims) return none(own("it is not a JWT"));
  const names = [name].flat();
  const held = names.find((n) => Object.hasOwn(claims, n));
  if (held !== undefined) return { value: claims[held] };
  if (names.length === 1) return none(told`the JWT has no claim "${names[0]}"`);
  return none(told`the JWT has none of the claims ${names.map((n) => `"${n}"`).join(", ")}`);
}
