/**
 * `${origin:…}`: the origin of a URL a flow already holds (`scheme://host`
 * and a port other than the scheme's own), as a browser writes it in the
 * `Origin` header of an unsafe request to the page's own server. A base URL
 * may carry a path (`http://h:1/api`); its origin never does, so a flow
 * that stands for a browser sends `origin: ${origin:vars.base}` on any host.
 *
 * @module
 */
import type { Ref } from "../model/template.ts";

/** The references that can hold a URL: variables, captures and setup outputs. */
const HOLDS_TEXT: ReadonlySet<Ref["kind"]> = new Set(["env", "name", "var", "step", "setup"]);

/**
 * Whether `${origin:…}` can read `ref`: a run-time value (`RANDOM`, `NOW`,
 * `RUN_ID`, `TRACE_ID`) is never a URL.
 *
 * @example
 * ```ts
 * import { takesOrigin } from "./origin.ts";
 * if (!takesOrigin({ kind: "env", name: "BASE_URL" }) || takesOrigin({ kind: "run-id" })) throw new Error();
 * ```
 */
export function takesOrigin(ref: Ref): boolean {
  return HOLDS_TEXT.has(ref.kind);
}

/**
 * The origin of `value`, or `undefined` when it is no absolute http or
 * https URL (what an `Origin` header can name).
 *
 * @example
 * ```ts
 * import { originOf } from "./origin.ts";
 * if (originOf("http://127.0.0.1:8080/api?x=1") !== "http://127.0.0.1:8080") throw new Error();
 * if (originOf("https://Example.com:443/") !== "https://example.com") throw new Error();
 * if (originOf("localhost:8080") !== undefined || originOf(42) !== undefined) throw new Error();
 * ```
 */
export function originOf(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  return url.protocol === "http:" || url.protocol === "https:" ? url.origin : undefined;
}

/**
 * `${host:…}`: the host and port of `value` (`127.0.0.1:8080`, the port
 * left out when it is the scheme's own), as a page writes its own address
 * without a scheme; `undefined` when it is no absolute http or https URL.
 *
 * @example
 * ```ts
 * import { hostOf } from "./origin.ts";
 * if (hostOf("http://127.0.0.1:8080/api?x=1") !== "127.0.0.1:8080") throw new Error();
 * if (hostOf("https://Example.com:443/") !== "example.com") throw new Error();
 * if (hostOf("localhost:8080") !== undefined) throw new Error();
 * ```
 */
export function hostOf(value: unknown): string | undefined {
  const origin = originOf(value);
  return origin === undefined ? undefined : new URL(origin).host;
}
