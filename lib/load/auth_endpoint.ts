/**
 * An OAuth2 endpoint's URL written in an `auth:` block (`token_url`,
 * `device_authorization_url`): an http or https URL, or an expression that
 * gives one; anything else is refused when the flow loads, not when the
 * first token is fetched.
 *
 * @module
 */
import type { Loading } from "./context.ts";
import type { Entry } from "./entry.ts";
import { isScalar } from "./nodes.ts";

/**
 * An example of each endpoint's URL, for hints.
 *
 * @example
 * ```ts
 * import { ENDPOINTS } from "./auth_endpoint.ts";
 * if (!ENDPOINTS.token_url.startsWith("https://")) throw new Error();
 * ```
 */
export const ENDPOINTS: Record<string, string> = {
  token_url: "https://idp.example/oauth/token",
  device_authorization_url: "https://idp.example/oauth/device/code",
};

/**
 * A written endpoint URL that is not http(s): one `bad-url` problem at its value.
 *
 * @example
 * ```ts
 * import { loadFlow } from "./load_flow.ts";
 * const { problems } = loadFlow(
 *   "name: f\nauth: {oauth2: {grant_type: client_credentials, token_url: ftp://i.test/t, client_id: app}}\n" +
 *     'steps:\n  - name: s\n    request: {url: "http://x.test"}\n',
 *   "f.yaml",
 * );
 * if (problems[0]?.code !== "bad-url") throw new Error(JSON.stringify(problems));
 * ```
 */
export function urlScheme(ctx: Loading, entry: Entry | undefined, what: string): void {
  const node = entry?.value;
  if (!entry || !isScalar(node) || typeof node.value !== "string") return;
  const text = node.value;
  if (/^https?:\/\/[^/?#]*@/i.test(text)) {
    // fetch sends user info as a Basic header of its own, beside the client's credentials.
    ctx.problem(
      "bad-url",
      `The "${entry.key}" of ${what} holds a user name and password before its host: they ` +
        "would be sent as a Basic header of the HTTP client's own, not as the client's.",
      node,
      "Write the client's credentials as client_id and client_secret (sent as HTTP Basic, or " +
        "in the form with client_auth: body) and the URL without them.",
    );
    ctx.concealLast();
    return;
  }
  if (text.startsWith("${") || /^https?:\/\//i.test(text)) return;
  ctx.problem(
    "bad-url",
    `Expected "${entry.key}" of ${what} to be an http or https URL, got "${text.slice(0, 80)}".`,
    node,
    `Write the endpoint's absolute URL, e.g. ${entry.key}: ${ENDPOINTS[entry.key]}.`,
  );
}
