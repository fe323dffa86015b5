/**
 * `digest`: HTTP Digest authentication (RFC 7616) as a kind of the `auth:`
 * block. The first request goes without credentials; a 401 with a Digest
 * challenge is answered by sending the request once more (the runner's
 * retry, so both are attempts in the reports) with the computed
 * `Authorization`. Later requests of the same step (a poll) answer the
 * same nonce with the next nonce count, as RFC 7616 §3.4 allows, and a
 * stale nonce is answered afresh. A 401 to an answer fails the step and
 * says why (`resent`); the password is a secret from the first moment it
 * is known.
 *
 * @module
 */
import type { Auth } from "../model/auth.ts";
import type { AuthChallenge } from "./auth_challenge.ts";
import { type AuthFactory, hasHeader, setHeader } from "./auth.ts";
import { AuthError } from "./auth_error.ts";
import { onDemand } from "../_util/on_demand.ts";
import { around, joined, ownWords, type Told, told } from "../model/told.ts";
import type { ResolvedRequest } from "./request.ts";
import type { ReceivedResponse } from "./response.ts";

/** The hashes need `node:crypto`, which starts Deno's Node layer: loaded by the first challenge. */
const digestModule = onDemand("HTTP Digest", () => import("./digest.ts"));
type Digest = typeof import("./digest.ts");

/**
 * The `digest` kind: answers a 401's Digest challenge.
 *
 * @example
 * ```ts
 * import { digest } from "./auth_digest.ts";
 * import { ReceivedResponse } from "./response.ts";
 * import { parseTemplate } from "../expr/template.ts";
 * const auth = { kind: "digest" as const, username: parseTemplate("Mufasa"), password: parseTemplate("Circle of Life") };
 * const handler = digest(auth, (t) => t.source, { secret: () => {}, env: () => undefined, timeoutMs: 1 });
 * const request = { method: "GET", url: "http://x.test/dir/index.html", headers: [] as [string, string][] };
 * await handler.apply(request);
 * if (request.headers.length !== 0) throw new Error("no credentials before a challenge");
 * const challenge = new ReceivedResponse(401, { "www-authenticate": 'Digest realm="r", nonce="n", qop="auth"' }, "");
 * if (!await handler.retry!(challenge, request)) throw new Error("answers the challenge");
 * const again = { ...request, headers: [] as [string, string][] };
 * await handler.apply(again);
 * if (!again.headers[0][1].startsWith('Digest username="Mufasa", realm="r", uri="/dir/index.html"')) throw new Error();
 * ```
 */
export const digest: AuthFactory = (auth, render, services) => {
  const a = auth as Extract<Auth, { kind: "digest" }>;
  let challenge: AuthChallenge | undefined;
  let count = 0;
  // Whether the request last sent carried this handler's answer (not the step's own header).
  let answered = false;
  return {
    async apply(request: ResolvedRequest) {
      answered = false;
      if (!challenge) return;
      const d = await digestModule.load();
      const password = render(a.password);
      services.secret(password);
      const url = new URL(request.url);
      const username = render(a.username);
      const value = d.digestAuthorization({
        method: request.method,
        uri: `${url.pathname}${url.search}`,
        username,
        password,
        challenge,
        nc: ++count,
      });
      // The answer is masked whole; the user name (not secret, as with Basic), the server's
      // values and the request target still show elsewhere.
      services.secret(value, [username, ...publicParts(challenge, url)]);
      const before = request.headers.length;
      setHeader(request, "authorization", value);
      answered = request.headers.length > before;
    },
    async retry(response: ReceivedResponse, request: ResolvedRequest) {
      if (response.status !== 401) return false;
      // The step sent its own Authorization: its 401 is the step's to check.
      if (!answered && hasHeader(request, "authorization")) {
        return false;
      }
      const d = await digestModule.load();
      const next = challengeOf(d, response);
      // A poll's earlier answer refused with a nonce that is not stale: the credentials are wrong.
      if (answered && !d.isStale(next)) throw refused(d, render(a.username), next);
      challenge = next;
      count = 0;
      return true;
    },
    async resent(response: ReceivedResponse) {
      if (response.status === 401 && answered) {
        const d = await digestModule.load();
        throw refused(d, render(a.username), challengeOf(d, response, true));
      }
    },
  };
};

/** The texts of an answer that are not secret: what the server sent, and the request target. */
function publicParts(challenge: AuthChallenge, url: URL): string[] {
  return [...challenge.params.values(), `${url.pathname}${url.search}`];
}

/** The Digest challenge of a 401; an `AuthError` saying why there is none to answer. */
function challengeOf(d: Digest, response: ReceivedResponse, lenient = false): AuthChallenge {
  try {
    return d.pickDigestChallenge(response.headers["www-authenticate"]);
  } catch (error) {
    if (!(error instanceof d.DigestError)) throw error;
    if (lenient) return { scheme: "Digest", params: new Map() };
    throw new AuthError(around("Digest auth: ", lowerFirst(error.told), ""));
  }
}

/** `reason` as a clause: its first word (flowrun's, `The server …`) lower-cased. */
function lowerFirst(reason: Told): Told {
  const [first, ...rest] = reason.words;
  return {
    words: [first.slice(0, 1).toLowerCase() + first.slice(1), ...rest],
    values: reason.values,
  };
}

/**
 * The failure of an answer the server refused, naming the user and the realm (values, masked where
 * a step shows it), never the password.
 */
function refused(d: Digest, username: string, challenge: AuthChallenge): AuthError {
  const realm = challenge.params.get("realm");
  const stale = d.isStale(challenge)
    ? "; it called the nonce stale again right after issuing it, so the server's clock or nonce store is at fault"
    : ": check the digest username and password";
  return new AuthError(joined(
    told`Digest auth: the server answered 401 again to the Digest answer for user "${username}"`,
    realm === undefined ? ownWords("") : told` (realm "${realm}")`,
    ownWords(`, so it refuses these credentials${stale}.`),
  ));
}
