/**
 * A login whose answer may be the token alone. NestJS sends a handler's
 * returned string as the whole body (`return this.jwtService.sign(payload)`
 * answers `eyJ…` as `text/html`), and `@nestjs/swagger` documents such an
 * answer as a `200` with no content. A document that gives the login's
 * successes no media type says nothing of JSON: the body may be the token
 * itself, bare or as a JSON string. Such a login's capture reads a JSON member
 * named like a token first, as any login read by name does, else a body that
 * is one word (no space, quote, brace or bracket; 16 characters or more, so
 * an `OK` or `true` is no token).
 *
 * @module
 */
import { isNode, type Node } from "../../check/openapi_operations.ts";
import type { OpenApiOperation } from "./operations.ts";
import { successes } from "./responses.ts";

/**
 * Whether `op` documents a success and none of its successes gives a media type: its answer
 * may be the token alone.
 *
 * @example
 * ```ts
 * import { answersNoMediaType } from "./bare_token.ts";
 * const op = (responses: object) => ({ node: { responses } }) as never;
 * if (!answersNoMediaType({}, op({ "200": { description: "" } }))) throw new Error();
 * const json = { content: { "application/json": { schema: { type: "object" } } } };
 * if (answersNoMediaType({}, op({ "200": json }))) throw new Error();
 * if (answersNoMediaType({}, op({ "400": { description: "" } }))) throw new Error();
 * ```
 */
export function answersNoMediaType(doc: Node, op: OpenApiOperation): boolean {
  const found = successes(doc, op.node).responses;
  return found.length > 0 &&
    found.every((r) => !isNode(r.content) || Object.keys(r.content).length === 0);
}

/**
 * `login` marked `bare` when its token is read by name (no path) and its successes give no
 * media type; else `login` itself.
 *
 * @example
 * ```ts
 * import { withBare } from "./bare_token.ts";
 * const op = { node: { responses: { "200": { description: "" } } } } as never;
 * if (!withBare({}, { op }).bare) throw new Error();
 * if (withBare({}, { op, path: ["token"] }).bare) throw new Error();
 * ```
 */
export function withBare<T extends { op: OpenApiOperation; path?: string[] }>(
  doc: Node,
  login: T,
): T & { bare?: boolean } {
  return !login.path && answersNoMediaType(doc, login.op) ? { ...login, bare: true } : login;
}

/**
 * The capture's pattern for such a login, from the pattern of what precedes a member's token
 * (`"(?:token|jwt)"\\s*:\\s*"`): group 1 is the first such member's text (its scheme word cut
 * off), else the whole body when it is one word, bare or quoted.
 *
 * @example
 * ```ts
 * import { bareOrMember } from "./bare_token.ts";
 * const got = (body: string) => new RegExp(bareOrMember('"(?:token|access_token)"\\s*:\\s*"')).exec(body)?.[1];
 * if (got('{"access_token":"Bearer abc"}') !== "abc") throw new Error();
 * if (got("eyJhbGciOiJIUzI1NiJ9.e30.sig\n") !== "eyJhbGciOiJIUzI1NiJ9.e30.sig") throw new Error();
 * if (got('"eyJhbGciOiJIUzI1NiJ9.e30.sig"') !== "eyJhbGciOiJIUzI1NiJ9.e30.sig") throw new Error();
 * if (got("OK") !== undefined || got("<html><body>signed in</body></html>") !== undefined) throw new Error();
 * ```
 */
export function bareOrMember(member: string): string {
  return `(?:${member}(?:[Bb]earer\\s+)?|` +
    `^\\s*"?(?:[Bb]earer\\s+)?(?=[^"\\s{}\\[\\]<>]{16,}"?\\s*$))([^"]+?)(?="|\\s*$)`;
}

/**
 * How the summary names where such a login's token is read, and where any other login's read
 * by name is.
 *
 * @example
 * ```ts
 * import { namedTokenWhere } from "./bare_token.ts";
 * if (namedTokenWhere({}) !== "a member named like a token") throw new Error();
 * if (!namedTokenWhere({ bare: true }).endsWith("or the whole answer when it is one word")) throw new Error();
 * ```
 */
export function namedTokenWhere(login: { bare?: boolean }): string {
  return login.bare
    ? "a member named like a token, or the whole answer when it is one word"
    : "a member named like a token";
}
