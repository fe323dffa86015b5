/**
 * A gRPC step's `target`: `host:port` (plaintext HTTP/2, h2c),
 * `grpc://host:port` (the same) or `grpcs://host:port` (TLS), as the
 * address grpc-js dials and the `grpc://…` URL reports show.
 *
 * @module
 */

/** A target read: the address to dial, whether over TLS, and the URL naming it. */
export interface GrpcTarget {
  /** `host:port`, as grpc-js takes it. */
  address: string;
  tls: boolean;
  /** `grpc://host:port` or `grpcs://host:port`. */
  url: string;
}

const SCHEMES: Record<string, boolean> = { "grpc://": false, "grpcs://": true };

/**
 * Reads a target, with `tls` (the step's `tls: true`) forcing TLS; a
 * sentence quoting the target when it is not `host:port` with a port.
 *
 * @example
 * ```ts
 * import { parseTarget } from "./target.ts";
 * const t = parseTarget("grpcs://api.example.com:443", false);
 * if (typeof t === "string" || !t.tls || t.address !== "api.example.com:443") throw new Error();
 * if (typeof parseTarget("http://x:1", false) !== "string") throw new Error();
 * ```
 */
export function parseTarget(text: string, tls: boolean): GrpcTarget | string {
  // Read on every call of a step: the few targets of a run are read once each.
  const key = `${tls} ${text}`;
  let known = READ.get(key);
  if (known === undefined) {
    if (READ.size >= MAX_READ) READ.delete(READ.keys().next().value!);
    READ.set(key, known = readTarget(text, tls));
  }
  return known;
}

/** Targets read, by `tls` and text; the oldest is dropped beyond the bound. */
const READ = new Map<string, GrpcTarget | string>();
const MAX_READ = 64;

function readTarget(text: string, tls: boolean): GrpcTarget | string {
  const scheme = Object.keys(SCHEMES).find((s) => text.toLowerCase().startsWith(s));
  const address = scheme ? text.slice(scheme.length).replace(/\/+$/, "") : text;
  const secure = tls || (scheme !== undefined && SCHEMES[scheme]);
  if (!/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_.-]+):\d{1,5}$/.test(address)) {
    return `Expected the gRPC target to be host:port, grpc://host:port or grpcs://host:port, got "${text}".`;
  }
  const port = Number(address.slice(address.lastIndexOf(":") + 1));
  if (port < 1 || port > 65535) return `The port of the gRPC target "${text}" is not 1–65535.`;
  return { address, tls: secure, url: `${secure ? "grpcs" : "grpc"}://${address}` };
}
