/**
 * The `auth:` block as loaded: how a step's request is authorised. It is
 * written at run level (`--auth-file`), flow level (beside `vars`) or step
 * level (`auth: none` opts out); the nearest wins. Every credential is a
 * template (`${ENV.X}`, `${setup.x}`, a var, a capture): the loader refuses a
 * literal one. The kinds are applied to a resolved request by `lib/http/auth.ts`.
 *
 * @module
 */
import type { Template } from "./template.ts";

/** Where an `api_key` goes. */
export type ApiKeyPlace = "header" | "query" | "cookie";

/**
 * The OAuth2 grants flowrun runs (RFC 6749 §4.4, §4.3, §6; RFC 8628's
 * `device_code`, unattended where a test IdP approves the device itself).
 */
export const OAUTH2_GRANTS = [
  "client_credentials",
  "password",
  "refresh_token",
  "device_code",
] as const;

/**
 * RFC 8628's full name of the `device_code` grant: the `grant_type` its token
 * requests send, also accepted as the block's `grant_type`.
 *
 * @example
 * ```ts
 * import { DEVICE_CODE_GRANT } from "./auth.ts";
 * if (!DEVICE_CODE_GRANT.endsWith(":device_code")) throw new Error();
 * ```
 */
export const DEVICE_CODE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";

/** An OAuth2 grant type. */
export type OAuth2Grant = typeof OAUTH2_GRANTS[number];

/** `oauth2:`, spelled as RFC 6749 spells its parameters. */
export interface OAuth2Auth {
  kind: "oauth2";
  grantType: OAuth2Grant;
  tokenUrl: Template;
  clientId: Template;
  clientSecret?: Template;
  scope?: Template;
  audience?: Template;
  /** The resource owner's, for the `password` grant. */
  username?: Template;
  password?: Template;
  /** The refresh token the `refresh_token` grant starts from. */
  refreshToken?: Template;
  /** RFC 8628's device authorization endpoint, for the `device_code` grant. */
  deviceAuthorizationUrl?: Template;
  /** More parameters of the token request, in order. */
  extra: [name: string, value: Template][];
  /** How the client authenticates: HTTP Basic (default, RFC 6749 §2.3.1) or in the body. */
  clientAuth: "basic" | "body";
  /** Where the block is written (its `oauth2` key): the reports' token entry points there. */
  at?: { file: string; line: number; column: number };
}

/**
 * One `auth:` block. `none` is a step's or an included flow's opt-out.
 *
 * @example
 * ```ts
 * import type { Auth } from "./auth.ts";
 * const none: Auth = { kind: "none" };
 * if (none.kind !== "none") throw new Error();
 * ```
 */
export type Auth =
  | { kind: "none" }
  | BasicAuth
  | { kind: "bearer"; token: Template; scheme?: string }
  | BearerCommandAuth
  | { kind: "api_key"; name: string; value: Template; in: ApiKeyPlace }
  | OAuth2Auth
  | { kind: "digest"; username: Template; password: Template }
  | AwsSigV4Auth;

/**
 * `basic`: RFC 7617's `base64(username:password)`, in `Authorization` after `Basic` unless
 * `header` names another header (a page's own `X-Authorization`) or `scheme` another word
 * before it (`""`: the bare base64).
 *
 * @example
 * ```ts
 * import type { BasicAuth } from "./auth.ts";
 * const place: Pick<BasicAuth, "header" | "scheme"> = { header: "X-Authorization" };
 * if (place.scheme !== undefined) throw new Error();
 * ```
 */
export interface BasicAuth {
  kind: "basic";
  username: Template;
  password: Template;
  /** The header the credentials go in; `Authorization` when absent. */
  header?: string;
  /** The word before the base64; `Basic` when absent, none when empty. */
  scheme?: string;
}

/**
 * `bearer: {command: [gh, auth, token]}`: the token a program prints, run
 * once per run per distinct argument list (allowed only with
 * `--allow-commands`).
 *
 * @example
 * ```ts
 * import type { BearerCommandAuth } from "./auth.ts";
 * const gh: BearerCommandAuth = { kind: "bearer", command: [{ source: "gh", parts: ["gh"] }] };
 * if (gh.refreshAfterMs !== undefined) throw new Error();
 * ```
 */
export interface BearerCommandAuth {
  kind: "bearer";
  /** The program and its arguments, each a template rendered before it runs: never a shell line. */
  command: Template[];
  /** `refresh_after`: the program is run again once its token is this old (ms). */
  refreshAfterMs?: number;
}

/** `aws_sigv4:`: credentials from these keys, else the standard AWS variables or `profile`. */
export interface AwsSigV4Auth {
  kind: "aws_sigv4";
  region: Template;
  service: Template;
  accessKeyId?: Template;
  secretAccessKey?: Template;
  sessionToken?: Template;
  /** A profile of the shared credentials file (`~/.aws/credentials`). */
  profile?: Template;
  /** `payload: unsigned`: S3's `UNSIGNED-PAYLOAD` instead of the body's hash. */
  unsignedPayload?: true;
}

/** The kinds, as written under `auth:`. */
export const AUTH_KINDS = ["basic", "bearer", "api_key", "oauth2", "digest", "aws_sigv4"] as const;

/** A kind as written. */
export type AuthKind = typeof AUTH_KINDS[number];
