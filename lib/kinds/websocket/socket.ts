/**
 * The part of the `ws` package's client this kind uses, typed here (the
 * package ships no types), and how it is loaded: on the first WebSocket
 * step, so a run without one never loads it.
 *
 * @module
 */
import type { CreateConnection } from "./proxy.ts";

/** A handshake response as Node's `http` gives it: lower-case names, `set-cookie` a list. */
export interface HandshakeResponse {
  statusCode?: number;
  headers: Record<string, string | string[] | undefined>;
  on(event: "data", listener: (chunk: Uint8Array) => void): void;
  on(event: "end" | "close", listener: () => void): void;
  on(event: "error", listener: (error: Error) => void): void;
  destroy(): void;
}

/** A `ws` client socket: the events and calls this kind uses. */
export interface ClientSocket {
  readonly protocol: string;
  on(event: "open", listener: () => void): void;
  on(event: "upgrade", listener: (response: HandshakeResponse) => void): void;
  on(event: "unexpected-response", listener: (req: unknown, res: HandshakeResponse) => void): void;
  on(event: "message", listener: (data: Uint8Array, isBinary: boolean) => void): void;
  on(event: "close", listener: (code: number, reason: Uint8Array) => void): void;
  on(event: "error", listener: (error: Error & { code?: string }) => void): void;
  send(data: string | Uint8Array, options: { binary: boolean }, done: (e?: Error) => void): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
}

/** What the `ws` client is given: the handshake, TLS and its bounds. */
export interface ClientOptions {
  headers: Record<string, string>;
  ca?: string[];
  cert?: string;
  key?: string;
  rejectUnauthorized: boolean;
  maxPayload: number;
  followRedirects: false;
  handshakeTimeout: number;
  /** Through a proxy: the tunnel to the target. */
  createConnection?: CreateConnection;
}

/** The `ws` client's constructor. */
export type ClientConstructor = new (
  url: string,
  protocols: string[],
  options: ClientOptions,
) => ClientSocket;

let loaded: Promise<ClientConstructor> | undefined;

/**
 * The `ws` client, loaded once, on first use.
 *
 * @example
 * ```ts
 * import { webSocketClient } from "./socket.ts";
 * const Client = await webSocketClient();
 * if (typeof Client !== "function") throw new Error();
 * ```
 */
export function webSocketClient(): Promise<ClientConstructor> {
  loaded ??= import("ws").then((ws) => (ws.default ?? ws.WebSocket) as ClientConstructor);
  return loaded;
}
