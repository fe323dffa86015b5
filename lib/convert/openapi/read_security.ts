/**
 * The security a document is read with, in order: a requirement naming an
 * undeclared scheme by its kind (undeclared_schemes.ts), a name saying
 * bearer that nothing declares (named_bearer.ts), an undeclared alternative
 * beside a declared one (undeclared_alternatives.ts), an apiKey header
 * its login says it hands out (said_key_login.ts), the one apiKey its
 * open login's answered token can be (answered_key_login.ts), a header parameter
 * every operation but the sign-ins requires where no security is declared (header_token.ts),
 * schemes declared and
 * required nowhere (declared_schemes.ts), an operation taking a declared
 * scheme's credential place as a parameter of its own (own_auth_header.ts),
 * a login's token where the
 * document declares no security at all (implied_bearer.ts), and the
 * requirement a document with a login and bare writes has lost
 * (login_security.ts). Each step sees what the one before it made.
 *
 * @module
 */
import type { Node } from "../../check/openapi_operations.ts";
import { withDeclaredSecurity } from "./declared_schemes.ts";
import { withImpliedBearer } from "./implied_bearer.ts";
import { withLoginSecurity } from "./login_security.ts";
import { withNamedBearer } from "./named_bearer.ts";
import { withSaidKeyLogin } from "./said_key_login.ts";
import { withAnsweredKeyLogin } from "./answered_key_login.ts";
import { withDeclaredNames } from "./undeclared_schemes.ts";
import { withDeclaredAlternatives } from "./undeclared_alternatives.ts";
import { withHeaderToken } from "./header_token.ts";
import { withOwnAuthHeader } from "./own_auth_header.ts";

/**
 * `document` with the security it says, declares or implies.
 *
 * @example
 * ```ts
 * import { readSecurity } from "./read_security.ts";
 * const doc = { paths: { "/a": { get: {} } }, components: { securitySchemes: { key: {} } } };
 * if (JSON.stringify(readSecurity(doc).security) !== '[{"key":[]}]') throw new Error();
 * ```
 */
export function readSecurity(document: Node): Node {
  const said = withAnsweredKeyLogin(
    withSaidKeyLogin(withDeclaredAlternatives(withNamedBearer(withDeclaredNames(document)))),
  );
  return withLoginSecurity(
    withImpliedBearer(withOwnAuthHeader(withDeclaredSecurity(withHeaderToken(said)))),
  );
}
