/**
 * HTTP Digest access authentication (RFC 7616), the client's half: choosing
 * a `Digest` challenge from a 401's `WWW-Authenticate` header and computing
 * the `Authorization` value that answers it for one request. MD5, SHA-256
 * and SHA-512-256, each also as `-sess`; `qop=auth`, or no `qop` at all
 * (RFC 2069 servers); `userhash`; a username that is not ASCII goes as
 * `username*` (RFC 8187). Hashes come from `node:crypto` because Web Crypto
 * has no MD5.
 *
 * @module
 */
import { createHash } from "node:crypto";
import { type AuthChallenge, ChallengeSyntaxError, parseChallenges } from "./auth_challenge.ts";
import { joined, ownWords, tell, type Told, told } from "../model/told.ts";

/** The algorithms answered, by upper-cased name, and the `node:crypto` hash each uses. */
const ALGORITHMS = new Map([
  ["MD5", "md5"],
  ["MD5-SESS", "md5"],
  ["SHA-256", "sha256"],
  ["SHA-256-SESS", "sha256"],
  ["SHA-512-256", "sha512-256"],
  ["SHA-512-256-SESS", "sha512-256"],
]);

/**
 * Why a Digest challenge cannot be answered: the 401 carries none
 * (`digest-no-challenge`), or only ones with an algorithm or `qop` flowrun
 * does not compute (`digest-unsupported`).
 *
 * @example
 * ```ts
 * import { DigestError, pickDigestChallenge } from "./digest.ts";
 * try {
 *   pickDigestChallenge('Basic realm="x"');
 *   throw new Error("expected no Digest challenge");
 * } catch (error) {
 *   if (!(error instanceof DigestError) || error.code !== "digest-no-challenge") throw error;
 *   if (error.told.values[0] !== '"Basic realm=\\"x\\""') throw error;
 * }
 * ```
 */
export class DigestError extends Error {
  /** Which of the reasons. */
  readonly code: "digest-no-challenge" | "digest-unsupported";
  /**
   * The message as flowrun's words and what it quotes of the server's header, the values masked
   * where a step shows it (a short password equal to a word never masks the sentence).
   */
  readonly told: Told;
  /** An error of kind `code`; `message` quotes what the server sent. */
  constructor(code: DigestError["code"], message: string | Told) {
    super(typeof message === "string" ? message : tell(message));
    this.name = "DigestError";
    this.code = code;
    this.told = typeof message === "string" ? told`${message}` : message;
  }
}

/**
 * The first `Digest` challenge in a `WWW-Authenticate` value that flowrun
 * can answer (servers list the one they prefer first). Throws
 * {@linkcode DigestError} when there is none.
 *
 * @example
 * ```ts
 * import { pickDigestChallenge } from "./digest.ts";
 * const c = pickDigestChallenge(
 *   'Digest realm="r", nonce="n1", algorithm=SHA-999, Digest realm="r", nonce="n2", algorithm=MD5',
 * );
 * if (c.params.get("nonce") !== "n2") throw new Error();
 * ```
 */
export function pickDigestChallenge(header: string | undefined | null): AuthChallenge {
  let all: AuthChallenge[];
  try {
    all = parseChallenges(header ?? "");
  } catch (error) {
    if (!(error instanceof ChallengeSyntaxError)) throw error;
    throw new DigestError("digest-no-challenge", error.told);
  }
  const digests = all.filter((c) => c.scheme.toLowerCase() === "digest");
  const shown = JSON.stringify((header ?? "").slice(0, 200));
  if (digests.length === 0) {
    throw new DigestError(
      "digest-no-challenge",
      header
        ? told`The server answered 401 with WWW-Authenticate ${shown}, which has no Digest challenge.`
        : "The server answered 401 without a WWW-Authenticate header, so there is no Digest challenge to answer.",
    );
  }
  const usable = digests.find((c) => unsupported(c) === undefined);
  if (usable) return usable;
  throw new DigestError(
    "digest-unsupported",
    joined(
      told`The server's Digest challenge ${shown} cannot be answered: `,
      unsupported(digests[0])!,
      ownWords("."),
    ),
  );
}

/** Why flowrun cannot answer a Digest challenge (the server's values apart), or undefined when it can. */
function unsupported(challenge: AuthChallenge): Told | undefined {
  const { params } = challenge;
  if (!params.has("realm") || !params.has("nonce")) return ownWords("it has no realm or no nonce");
  const algorithm = params.get("algorithm") ?? "MD5";
  if (!ALGORITHMS.has(algorithm.toUpperCase())) {
    return told`its algorithm "${algorithm}" is none of MD5, SHA-256 and SHA-512-256 (or their -sess forms)`;
  }
  const qops = qopList(params.get("qop"));
  if (qops !== undefined && !qops.includes("auth")) {
    return told`its qop "${params.get("qop")}" does not offer "auth" (auth-int is not supported)`;
  }
  return undefined;
}

/**
 * The challenge's qop options, or undefined for none: an empty `qop=""` is
 * none too, as the http-auth package sends it when it is set to no qop (and
 * checks the answer without one, RFC 2069's way).
 */
function qopList(qop: string | undefined): string[] | undefined {
  if (qop === undefined || qop.trim() === "") return undefined;
  return qop.split(",").map((q) => q.trim().toLowerCase());
}

/**
 * What one Digest answer is computed from. `cnonce` and `nc` are given by
 * tests to reproduce published examples; left out, the cnonce is 16 random
 * bytes and the count 1.
 *
 * @example
 * ```ts
 * import type { DigestInput } from "./digest.ts";
 * import { pickDigestChallenge } from "./digest.ts";
 * const input: DigestInput = {
 *   method: "GET", uri: "/", username: "u", password: "p",
 *   challenge: pickDigestChallenge('Digest realm="r", nonce="n"'),
 * };
 * if (input.uri !== "/") throw new Error();
 * ```
 */
export interface DigestInput {
  /** The request method, as sent. */
  method: string;
  /** The request target as sent: path and query. */
  uri: string;
  username: string;
  password: string;
  challenge: AuthChallenge;
  /** The client nonce (default: 16 random bytes, hex). */
  cnonce?: string;
  /** The nonce count: how many requests this nonce has answered, this one included (default 1). */
  nc?: number;
}

/**
 * The `Authorization` header value answering a Digest challenge.
 *
 * @example RFC 7616 §3.9.1, SHA-256
 * ```ts
 * import { digestAuthorization, pickDigestChallenge } from "./digest.ts";
 * const challenge = pickDigestChallenge(
 *   'Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=SHA-256, ' +
 *     'nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS"',
 * );
 * const value = digestAuthorization({
 *   method: "GET", uri: "/dir/index.html", username: "Mufasa", password: "Circle of Life",
 *   challenge, cnonce: "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ",
 * });
 * if (!value.includes('response="753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1"')) {
 *   throw new Error(value);
 * }
 * ```
 */
export function digestAuthorization(input: DigestInput): string {
  const { params } = input.challenge;
  const realm = params.get("realm") ?? "";
  const nonce = params.get("nonce") ?? "";
  const algorithm = params.get("algorithm") ?? "MD5";
  const hash = hasher(ALGORITHMS.get(algorithm.toUpperCase()) ?? "md5");
  const qop = qopList(params.get("qop")) ? "auth" : undefined;
  const cnonce = input.cnonce ?? randomHex(16);
  const nc = (input.nc ?? 1).toString(16).padStart(8, "0");
  let ha1 = hash(`${input.username}:${realm}:${input.password}`);
  if (algorithm.toUpperCase().endsWith("-SESS")) ha1 = hash(`${ha1}:${nonce}:${cnonce}`);
  const ha2 = hash(`${input.method}:${input.uri}`);
  const response = qop
    ? hash(`${ha1}:${nonce}:${nc}:${cnonce}:${qop}:${ha2}`)
    : hash(`${ha1}:${nonce}:${ha2}`);
  const userhash = params.get("userhash")?.toLowerCase() === "true";
  const fields = [
    userField(input.username, userhash ? hash(`${input.username}:${realm}`) : undefined),
    `realm=${quote(realm)}`,
    `uri=${quote(input.uri)}`,
    `algorithm=${algorithm}`,
    `nonce=${quote(nonce)}`,
    ...(qop ? [`nc=${nc}`, `cnonce=${quote(cnonce)}`, `qop=${qop}`] : []),
    `response=${quote(response)}`,
    ...(params.has("opaque") ? [`opaque=${quote(params.get("opaque")!)}`] : []),
    ...(userhash ? ["userhash=true"] : []),
  ];
  return `Digest ${fields.join(", ")}`;
}

/** `username="…"`, the user hash, or `username*=UTF-8''…` for a name a quoted string cannot carry. */
function userField(username: string, userhash: string | undefined): string {
  if (userhash !== undefined) return `username=${quote(userhash)}`;
  if (/^[\x20-\x7e]*$/.test(username)) return `username=${quote(username)}`;
  const encoded = encodeURIComponent(username).replace(
    /['()*!]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `username*=UTF-8''${encoded}`;
}

function quote(value: string): string {
  return `"${value.replace(/["\\]/g, (c) => `\\${c}`)}"`;
}

function hasher(name: string): (text: string) => string {
  return (text) => createHash(name).update(text, "utf8").digest("hex");
}

function randomHex(bytes: number): string {
  const buffer = crypto.getRandomValues(new Uint8Array(bytes));
  return [...buffer].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * Whether a 401's challenge says the nonce answered was merely stale
 * (`stale=true`): the password was right, and the new nonce may be answered
 * once more.
 *
 * @example
 * ```ts
 * import { isStale, pickDigestChallenge } from "./digest.ts";
 * if (!isStale(pickDigestChallenge('Digest realm="r", nonce="n", stale=TRUE'))) throw new Error();
 * if (isStale(pickDigestChallenge('Digest realm="r", nonce="n"'))) throw new Error();
 * ```
 */
export function isStale(challenge: AuthChallenge): boolean {
  return challenge.params.get("stale")?.toLowerCase() === "true";
}
