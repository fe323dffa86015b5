/**
 * OAuth2 tokens shared by every worker of a run: one fetch per configuration
 * for the whole run, as on one thread. Main holds the run's
 * {@linkcode TokenCache}; a worker's {@linkcode WorkerTokens} asks main for a
 * token, and when main has none fresh it asks that worker to fetch it (the
 * flow that needed it reports the token request, as on one thread) and
 * hands the token to every worker that waits for it.
 *
 * @module
 */
import { AuthError } from "../../http/auth_error.ts";
import { type Token, TokenCache } from "../../http/token_cache.ts";
import type { FromWorker, ToWorker, WireError, WireToken } from "./messages.ts";

/**
 * A token with its time of renewal on this thread's clock, as it travels.
 *
 * @example
 * ```ts
 * import { toWire, fromWire } from "./tokens.ts";
 * const wire = toWire({ accessToken: "t", renewAt: performance.now() + 1000 });
 * if (!(wire.renewInMs! > 900) || fromWire(wire).accessToken !== "t") throw new Error();
 * ```
 */
export function toWire(token: Token): WireToken {
  return {
    accessToken: token.accessToken,
    ...(token.renewAt === undefined ? {} : { renewInMs: token.renewAt - performance.now() }),
    ...(token.refreshToken === undefined ? {} : { refreshToken: token.refreshToken }),
  };
}

/**
 * A token from the wire, its renewal on this thread's clock.
 *
 * @example
 * ```ts
 * import { fromWire } from "./tokens.ts";
 * if (fromWire({ accessToken: "t" }).renewAt !== undefined) throw new Error();
 * ```
 */
export function fromWire(token: WireToken): Token {
  return {
    accessToken: token.accessToken,
    ...(token.renewInMs === undefined ? {} : { renewAt: performance.now() + token.renewInMs }),
    ...(token.refreshToken === undefined ? {} : { refreshToken: token.refreshToken }),
  };
}

/**
 * An error as it travels: an `AuthError` stays one on the other side.
 *
 * @example
 * ```ts
 * import { errorFromWire, errorToWire } from "./tokens.ts";
 * import { AuthError } from "../../http/auth_error.ts";
 * import { told } from "../../model/told.ts";
 * const back = errorFromWire(errorToWire(new AuthError("No token.")));
 * if (!(back instanceof AuthError) || back.message !== "No token.") throw new Error();
 * const made = errorFromWire(errorToWire(new AuthError(told`No token from ${"http://x.test/t"}.`)));
 * if (!(made instanceof AuthError) || made.told?.values[0] !== "http://x.test/t") throw new Error();
 * ```
 */
export function errorToWire(error: unknown): WireError {
  const told = error instanceof AuthError ? error.told : undefined;
  return {
    message: error instanceof Error ? error.message : String(error),
    auth: error instanceof AuthError,
    // Its words apart from its values, so the other thread masks the values only.
    ...(told ? { told } : {}),
  };
}

/**
 * The error a {@linkcode WireError} describes.
 *
 * @example
 * ```ts
 * import { errorFromWire } from "./tokens.ts";
 * if (errorFromWire({ message: "x", auth: false }).message !== "x") throw new Error();
 * ```
 */
export function errorFromWire(error: WireError): Error {
  return error.auth ? new AuthError(error.told ?? error.message) : new Error(error.message);
}

/**
 * A worker's token cache: every token comes from main's.
 *
 * @example
 * ```ts
 * import { WorkerTokens } from "./tokens.ts";
 * const sent: unknown[] = [];
 * const tokens = new WorkerTokens((m) => void sent.push(m));
 * const got = tokens.get("k", () => Promise.resolve({ accessToken: "t1" }));
 * // Main answers: fetch it here, then the token.
 * await tokens.fetch(1, undefined);
 * tokens.answer(1, "t1");
 * if (await got !== "t1" || sent.length !== 2) throw new Error(JSON.stringify(sent));
 * ```
 */
export class WorkerTokens extends TokenCache {
  #next = 0;
  #waiting = new Map<number, {
    fetch: (held?: Token) => Promise<Token>;
    resolve: (token: string) => void;
    reject: (error: Error) => void;
  }>();

  constructor(readonly post: (message: FromWorker) => void) {
    super();
  }

  /** Asks main for `key`'s token; `fetch` runs here if main asks this worker to fetch it. */
  override get(key: string, fetch: (held?: Token) => Promise<Token>): Promise<string> {
    const id = ++this.#next;
    return new Promise<string>((resolve, reject) => {
      this.#waiting.set(id, { fetch, resolve, reject });
      this.post({ kind: "token-get", id, key });
    });
  }

  /** Tells main the API refused `token`. */
  override reject(key: string, token: string): void {
    this.post({ kind: "token-reject", key, token });
  }

  /** Main asks this worker to fetch the token request `id` waits for. */
  async fetch(id: number, held: WireToken | undefined): Promise<void> {
    const waiting = this.#waiting.get(id);
    if (!waiting) return;
    try {
      const token = await waiting.fetch(held && fromWire(held));
      this.post({ kind: "token-fetched", id, token: toWire(token) });
    } catch (error) {
      this.post({ kind: "token-fetched", id, error: errorToWire(error) });
    }
  }

  /** Main's answer to request `id`: the token, or why there is none. */
  answer(id: number, token: string | undefined, error?: WireError): void {
    const waiting = this.#waiting.get(id);
    if (!waiting) return;
    this.#waiting.delete(id);
    if (token !== undefined) waiting.resolve(token);
    else waiting.reject(errorFromWire(error ?? { message: "No token.", auth: true }));
  }
}

/**
 * A worker as the broker knows it: its number in the pool, and how to tell it something.
 *
 * @example
 * ```ts
 * import type { BrokerWorker } from "./tokens.ts";
 * const worker: BrokerWorker = { n: 1, post: () => {} };
 * if (worker.n !== 1) throw new Error();
 * ```
 */
export interface BrokerWorker {
  readonly n: number;
  post(message: ToWorker): void;
}

/**
 * Main's side: the run's cache, each token fetched by the worker that first
 * asked for it.
 *
 * @example
 * ```ts
 * import { TokenBroker } from "./tokens.ts";
 * const broker = new TokenBroker();
 * const answers: unknown[] = [];
 * const worker = { n: 0, post: (m: unknown) => void answers.push(m) };
 * broker.get(worker, 1, "k");
 * broker.fetched(worker, 1, { accessToken: "t1" });
 * await new Promise((r) => setTimeout(r, 0));
 * if (JSON.stringify(answers.at(-1)) !== '{"kind":"token","id":1,"token":"t1"}') throw new Error();
 * ```
 */
export class TokenBroker {
  readonly #cache: TokenCache;
  /** Fetches main asked a worker for, by the worker and the id of the request that made it ask. */
  readonly #fetches = new Map<
    string,
    { resolve: (t: Token) => void; reject: (e: Error) => void }
  >();

  /** `cache` is the run's: main's own flows use it too. */
  constructor(cache: TokenCache = new TokenCache()) {
    this.#cache = cache;
  }

  /** Worker `worker` asks for `key`'s token under request `id`. */
  get(worker: BrokerWorker, id: number, key: string): void {
    const fetch = (held?: Token) =>
      new Promise<Token>((resolve, reject) => {
        this.#fetches.set(`${worker.n}:${id}`, { resolve, reject });
        worker.post({ kind: "token-fetch", id, ...(held ? { held: toWire(held) } : {}) });
      });
    this.#cache.get(key, fetch).then(
      (token) => worker.post({ kind: "token", id, token }),
      (error) => worker.post({ kind: "token", id, error: errorToWire(error) }),
    );
  }

  /** A worker fetched (or failed to fetch) the token of its request `id`. */
  fetched(
    worker: BrokerWorker,
    id: number,
    token: WireToken | undefined,
    error?: WireError,
  ): void {
    const waiting = this.#fetches.get(`${worker.n}:${id}`);
    if (!waiting) return;
    this.#fetches.delete(`${worker.n}:${id}`);
    if (token) waiting.resolve(fromWire(token));
    else waiting.reject(errorFromWire(error ?? { message: "No token.", auth: true }));
  }

  /**
   * Worker `worker` failed: the fetches main asked of it fail, so the flows
   * waiting for those tokens (on any thread) go on, and the next ask fetches again.
   */
  lost(worker: BrokerWorker): void {
    for (const [key, waiting] of this.#fetches) {
      if (!key.startsWith(`${worker.n}:`)) continue;
      this.#fetches.delete(key);
      waiting.reject(new Error("The worker thread that fetched the token failed."));
    }
  }

  /** A worker's flow got 401 with `token`. */
  reject(key: string, token: string): void {
    this.#cache.reject(key, token);
  }
}
