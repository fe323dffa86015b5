/**
 * The signed-in account's id read from its token. A login that answers only
 * `{token}`, a sign-up that answers only `{message}`, no `GET /me`: nothing
 * the document shows answers the account's id, yet `/users/{id}` (its read,
 * update and delete, 403 for anyone else's) needs it. When the document
 * says the token is a JWT (a scheme the login's token serves declares
 * `bearerFormat: JWT`), the token says whose it is: RFC 7519's `sub` claim
 * is the principal it was issued to, and the login's step captures it with
 * `{path: <the token>, claim: sub}`. Only then, and only where no answer
 * gives the id (`own_item_link.ts` asks it last): an opaque token, or one
 * the document does not call a JWT, is never opened.
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";

/** What of the login (`login.ts`'s `Login`) this reads; its own shape, so that `capture_source.ts` may import this without a cycle. */
export interface TokenLogin {
  /** The token's path in the login's answer. */
  path?: string[];
  /** Each scheme the token serves, by name. */
  schemes: ReadonlyMap<string, unknown>;
  /** A session login has no token. */
  session?: boolean;
}

/** The claim a JWT names its account by (RFC 7519, 4.1.2). */
export const SUBJECT_CLAIM = "sub";

/**
 * The noun an id parameter is named for, as written (`user` of `user_id`,
 * `userId`, `userID`); none for `id` itself or a word ending in "id" (`paid`).
 *
 * @example
 * ```ts
 * import { idNoun } from "./jwt_subject.ts";
 * if (idNoun("userId") !== "user" || idNoun("paid") !== undefined || idNoun("id") !== undefined) {
 *   throw new Error();
 * }
 * ```
 */
export function idNoun(param: string): string | undefined {
  return /^(.+?)(?:_id|Id|ID)$/.exec(param)?.[1];
}

/**
 * The claims a token may name the account `param` reads by: `sub`, else the
 * parameter's own name, the same noun's id in either spelling, and `id`. Many
 * servers sign `{id}` or `{userId}` and no `sub` (jsonwebtoken's
 * `jwt.sign({id: user.id}, secret)`): the capture keeps the first the token
 * holds (`claim: [sub, …]`, docs/flow-format.md).
 *
 * @example
 * ```ts
 * import { subjectClaims } from "./jwt_subject.ts";
 * if (subjectClaims("user_id").join() !== "sub,user_id,userId,id") throw new Error();
 * if (subjectClaims("id").join() !== "sub,id") throw new Error();
 * ```
 */
export function subjectClaims(param: string): string[] {
  const noun = idNoun(param);
  const named = noun ? [param, `${noun}_id`, `${noun}Id`] : [param];
  return [...new Set([SUBJECT_CLAIM, ...named, "id"])];
}

/**
 * Whether the login's token is one the document calls a JWT: it is found at
 * a path of the login's answer, and a scheme it serves declares
 * `bearerFormat: JWT`.
 *
 * @example
 * ```ts
 * import { jwtToken } from "./jwt_subject.ts";
 * const doc = { components: { securitySchemes: { b: { type: "http", scheme: "bearer", bearerFormat: "JWT" } } } };
 * const login = { op: {}, path: ["token"], schemes: new Map([["b", {}]]) } as never;
 * if (!jwtToken(doc, login) || jwtToken({}, login)) throw new Error();
 * ```
 */
export function jwtToken(doc: Node, login: TokenLogin): boolean {
  if (login.session || login.path === undefined) return false;
  const components = isNode(doc.components) ? doc.components : {};
  const schemes = isNode(components.securitySchemes) ? components.securitySchemes : {};
  return [...login.schemes.keys()].some((name) => {
    const scheme = schemes[name];
    return isNode(scheme) && typeof scheme.bearerFormat === "string" &&
      /^jwt$/i.test(scheme.bearerFormat.trim());
  });
}
