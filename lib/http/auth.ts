/**
 * Authorising a resolved request: THE one place an `auth:` block (see
 * `model/auth.ts`) is applied. The runner (`run/attempt.ts`) asks
 * {@linkcode authHandler} for a handler once per step, calls its `apply` on
 * each request just before it is sent (after cookies are added, so a
 * signature covers them; a `traceparent` that `--trace` adds comes after and
 * is not signed, as AWS's SDKs leave their trace header unsigned: a tracing
 * proxy may rewrite it), and, when a response
 * comes back, its `retry` once: `true` sends the request again (applied
 * again) as one more attempt — an OAuth2 token refreshed after a 401, a
 * Digest challenge answered.
 *
 A kind is an {@linkcode AuthFactory} in a module of its own (`auth_simple.ts`:
 * basic, bearer, api_key; `oauth2.ts`), listed in `AUTH_HANDLERS` of
 * `auth_kinds.ts`: a function from the loaded block, a `render` that resolves
 * its templates (in the step's scope) and the run's {@linkcode AuthServices},
 * to an {@linkcode AuthHandler}; `auth_digest.ts` and `auth_sigv4.ts` are
 * the `digest` and `aws_sigv4` kinds. A handler's `resent` hears the answer
 * to the request `retry` sent again, and names a refusal.
 *
 * A request that already carries the header a kind sets (the step wrote
 * `authorization` itself) is left as the step wrote it: the step wins.
 *
 * @module
 */
import type { Auth } from "../model/auth.ts";
import type { Template } from "../model/template.ts";
import type { Told } from "../model/told.ts";
import type { ResolvedRequest } from "./request.ts";
import type { ReceivedResponse } from "./response.ts";
import type { TokenCache, TokenExchange } from "./token_cache.ts";
import type { SendOptions } from "./send.ts";
import type { Deadlines } from "./deadlines.ts";
import type { LearnedSchemes } from "./bearer_scheme.ts";

export { AuthError } from "./auth_error.ts";

/** What a handler does to a step's requests. */
export interface AuthHandler {
  /** Adds the credentials to a request just before it is sent. */
  apply(request: ResolvedRequest): Promise<void>;
  /**
   * After a response: whether to send the request once more with fresh
   * credentials. Called at most once per request the step sends.
   */
  retry?(response: ReceivedResponse, request: ResolvedRequest): Promise<boolean>;
  /**
   * After the response to a request sent again because `retry` said so:
   * throws an `AuthError` saying why when the fresh credentials were
   * refused too (a Digest answer met by a second 401), instead of leaving
   * the step's checks to report a bare status.
   */
  resent?(response: ReceivedResponse, request: ResolvedRequest): Promise<void>;
  /**
   * What the reports say of how the step's credentials were sent, when it is
   * not what the block says (a bearer token sent with the word the server
   * asked for).
   */
  note?(): string | undefined;
}

/** What the run lends the kinds: secrets, the environment, the token cache, sending. */
export interface AuthServices {
  /**
   * Registers a value as a secret: masked in every output. `shown` are the
   * public texts within it (a Digest answer's realm and URI, the headers a
   * signature lists): the value is masked whole, but not a piece of it that
   * lies within one of them, so they still show where else they appear.
   */
  secret(value: string, shown?: readonly string[]): void;
  /** Reads an environment variable (`AWS_ACCESS_KEY_ID`, …). */
  env(name: string): string | undefined;
  /** The run's OAuth2 tokens, shared by every flow and worker. */
  tokens?: TokenCache;
  /** How token requests are sent: deadline and interrupt. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** Told of each token request, for the reports. */
  onExchange?(exchange: TokenExchange): void;
  /** How a token request to `url` reaches its server: the step's CAs, client certificate, proxy. */
  transport?(url: string): Pick<SendOptions, "client" | "insecure">;
  /** The run's request deadlines, on one timer. */
  deadlines?: Deadlines;
  /**
   * Shows a person one line while the run goes: where to approve an OAuth2
   * device (`device_code`). Without it, the line goes to standard error.
   * `told` is the line as flowrun's words and the values it quotes (URLs, the
   * user code), for a run that masks the values before it shows the line.
   */
  notice?(line: string, told?: Told): void;
  /**
   * The words before a bearer token the flow's servers asked for, by origin
   * (`bearer_scheme.ts`): one map per flow run; without it, none is learned.
   */
  schemes?: LearnedSchemes;
}

/** A kind: the loaded block, its templates' values and the run's services → a handler. */
export type AuthFactory = (
  auth: Auth,
  render: (template: Template) => string,
  services: AuthServices,
) => AuthHandler;

/**
 * Adds a header unless the request has one of that name: a header the step wrote wins.
 *
 * @example
 * ```ts
 * import { setHeader } from "./auth.ts";
 * const request = { method: "GET", url: "http://x.test/", headers: [["Authorization", "Bearer own"]] as [string, string][] };
 * setHeader(request, "authorization", "Bearer other");
 * if (request.headers.length !== 1) throw new Error();
 * ```
 */
export function setHeader(request: ResolvedRequest, name: string, value: string): void {
  if (hasHeader(request, name)) return;
  request.headers.push([name, value]);
}

/**
 * Whether the request has a header of this name, in any case: a step that
 * writes its own `Authorization` gets no token, signature or Digest answer.
 *
 * @example
 * ```ts
 * import { hasHeader } from "./auth.ts";
 * const request = { method: "GET", url: "http://x.test/", headers: [["Authorization", "Bearer own"]] as [string, string][] };
 * if (!hasHeader(request, "authorization") || hasHeader(request, "x-api-key")) throw new Error();
 * ```
 */
export function hasHeader(request: ResolvedRequest, name: string): boolean {
  const lower = name.toLowerCase();
  return request.headers.some(([n]) => n.toLowerCase() === lower);
}
