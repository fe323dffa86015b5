/**
 * A gRPC step's `target`: `host:port` (plaintext HTTP/2, h2c),
 * `grpc://host:port` (the same) or `grpcs://host:port` (TLS), as the
 * address grpc-js dials and the `grpc://…` URL reports show.
 *
 * @module
 */
import { type Told, told } from "../../model/told.ts";

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
 * sentence quoting the target (a value) when it is not `host:port` with a port.
 *
 * @example
 * ```ts
 * import { parseTarget } from "./target.ts";
 * const t = parseTarget("grpcs://api.example.com:443", false);
 * if ("words" in t || !t.tls || t.address !== "api.example.com:443") throw new Error();
 * const bad = parseTarget("http://x:1", false);
 * if (!("words" in bad) || bad.values[0] !== "http://x:1") throw new Error();
 * ```
 */
export function parseTarget(text: string, tls: boolean): GrpcTarget | Told {
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
const READ = new Map<string, GrpcTarget | Told>();
const MAX_READ = 64;

/** The target given is a value of the sentence (an expression made it); the rest is flowrun's. */
function readTarget(text: string, tls: boolean): GrpcTarget | Told {
  const scheme = Object.keys(SCHEMES).find((s) => text.toLowerCase().startsWith(s));
  const address = scheme ? text.slice(scheme.length).replace(/\/+$/, "") : text;
  const secure = tls || (scheme !== undefined && SCHEMES[scheme]);
  if (!/^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9_.-]+):\d{1,5}$/.test(address)) {
    return told`Expected the gRPC target to be host:port, grpc://host:port or grpcs://host:port, got "${text}".`;
  }
  const port = Number(address.slice(address.lastIndexOf(":") + 1));
  if (port < 1 || port > 65535) return told`The port of the gRPC target "${text}" is not 1–65535.`;
  return { address, tls: secure, url: `${secure ? "grpcs" : "grpc"}://${address}` };
}
