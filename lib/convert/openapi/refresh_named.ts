/**
 * A refresh token the login answers though its answer's schema does not
 * show it, sent back under the name a later body property gives it:
 * simplejwt's `POST /api/token/` answers `{refresh, access}` while Django
 * REST framework's generated document describes that answer as its request
 * (`username`, `password`), and its `POST /api/token/refresh/` takes
 * `{refresh}`. answered_values.ts sends back only what the login's schema
 * shows, so the refresh was sent a made-up `refresh-…` and refused 401. A
 * login whose token is itself read by name (its schema shows none) answers
 * what it answers undescribed: a top-level body property named for a
 * refresh token (`refresh`, `refresh_token`, `refreshToken`) is read from
 * the login's answer by that name at run time, as its token is.
 *
 * @module
 */
import { ymap, type YNode } from "../yaml_out.ts";
import { plainName } from "./required_props.ts";
import { escapeRegExp } from "../../_util/regex_escape.ts";

/** The login as answered_values.ts sees it: where its token is, when its schema shows it. */
export interface NamedLogin {
  path?: string[];
}

/**
 * The capture of body property `key` from the login's answer, by its name,
 * when the login's schema shows no token and `key` names a refresh token.
 *
 * @example
 * ```ts
 * import { undescribedRefresh } from "./refresh_named.ts";
 * if (!JSON.stringify(undescribedRefresh({}, "refresh")).includes('\\"refresh\\"')) throw new Error();
 * if (undescribedRefresh({ path: ["token"] }, "refresh") !== undefined) throw new Error();
 * if (undescribedRefresh({}, "username") !== undefined) throw new Error();
 * ```
 */
export function undescribedRefresh(login: NamedLogin, key: string): YNode | undefined {
  if (login.path !== undefined || !/^refresh(token)?$/.test(plainName(key))) return undefined;
  const name = escapeRegExp(key);
  return ymap([["regex", `"${name}"\\s*:\\s*"([^"]+)"`]]);
}
