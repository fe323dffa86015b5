/**
 * A recorded gRPC call as a `grpc:` step. flowrun's own HAR (`--report-har`,
 * `lib/report/har_kinds.ts`) writes a call as the HTTP/2 `POST` it was:
 * `content-type: application/grpc` sent, the messages decoded as JSON text
 * (`application/grpc+json`), the call's status in `grpc-status`. Sent again
 * as an HTTP request it would fail (a gRPC server wants its framing), so it
 * becomes a `grpc:` step: the target from the URL's origin (a variable of
 * its own, `grpc://` or `grpcs://`), the method from its path, the request's
 * JSON as `message:` (a list as `messages:`), the metadata sent as
 * `metadata:`, and `status:` the recorded `grpc-status`. A HAR holds no
 * `.proto` files: the step describes the method by the server's reflection;
 * a server without it needs `proto:` added. A browser's gRPC-Web call sends
 * protobuf bytes, not JSON: it is not one of these.
 *
 * @module
 */
import type { HarRecord } from "./har_model.ts";
import type { Step } from "./model.ts";
import { isObject } from "./_har_fields.ts";
import { type YMap, ymap, ymapOf } from "./yaml_out.ts";
import type { Correlator } from "./correlate/state.ts";

/** The type of gRPC messages written as JSON. */
const GRPC_JSON = /^application\/grpc\+json\b/i;

/** Headers of the call itself, not metadata the flow chose. */
const NOT_METADATA = /^(content-type|te|grpc-.*|user-agent|accept(-.*)?|host|:.*)$/i;

/**
 * Whether a record is a gRPC call with its messages as JSON: it sent
 * `application/grpc` and its body is `application/grpc+json`.
 *
 * @example
 * ```ts
 * import { isGrpcCall } from "./har_grpc.ts";
 * const r = { bodyMime: "application/grpc+json", headers: [{ name: "content-type", value: "application/grpc" }] };
 * // deno-lint-ignore no-explicit-any
 * if (!isGrpcCall(r as any) || isGrpcCall({ ...r, bodyMime: "application/json" } as any)) throw new Error();
 * ```
 */
export function isGrpcCall(r: Pick<HarRecord, "bodyMime" | "headers">): boolean {
  const sent = r.headers.find((h) => h.name.toLowerCase() === "content-type")?.value ?? "";
  return /^application\/grpc\b/i.test(sent) && GRPC_JSON.test(r.bodyMime ?? "");
}

/**
 * The recorded call's `grpc-status` (0 when the response says none).
 *
 * @example
 * ```ts
 * import { grpcStatusOf } from "./har_grpc.ts";
 * const raw = { response: { headers: [{ name: "grpc-status", value: "5" }] } };
 * // deno-lint-ignore no-explicit-any
 * if (grpcStatusOf({ raw } as any) !== 5) throw new Error();
 * ```
 */
export function grpcStatusOf(r: Pick<HarRecord, "raw">): number {
  const response = r.raw.response;
  const headers = isObject(response) && Array.isArray(response.headers) ? response.headers : [];
  const found = headers.find((h) => isObject(h) && String(h.name).toLowerCase() === "grpc-status");
  const code = Number(isObject(found) ? found.value : 0);
  return Number.isInteger(code) ? code : 0;
}

/**
 * The `grpc:` map of a step built from a gRPC call's record (after its
 * headers and body were rewritten): its target on a variable of its own.
 *
 * @example
 * ```ts
 * import { grpcMap } from "./har_grpc.ts";
 * import { newCorrelator } from "./correlate/pipeline.ts";
 * const c = newCorrelator("a");
 * const r = { url: new URL("http://127.0.0.1:50051/atlas.Atlas/GetPlace"), bodyText: "{}" };
 * const step = { headers: [["x-id", "7"], ["content-type", "application/grpc"]], body: { entries: [] } };
 * // deno-lint-ignore no-explicit-any
 * const map = grpcMap(c, r as any, step as any);
 * const keys = map.entries.map(([k]) => k).join();
 * if (keys !== "target,method,message,metadata") throw new Error(keys);
 * ```
 */
export function grpcMap(c: Correlator, r: HarRecord, step: Step): YMap {
  const list = Array.isArray(parsed(r.bodyText));
  const metadata = step.headers.filter(([name]) => !NOT_METADATA.test(name));
  return ymap([
    ["target", targetRef(c, r.url)],
    ["method", r.url.pathname.replace(/^\/+/, "")],
    [list ? "messages" : "message", step.body],
    ["metadata", ymapOf(metadata)],
  ]);
}

/** Each correlation's gRPC targets: the var reference of each recorded origin. */
const targets = new WeakMap<Correlator, Map<string, string>>();

/** The target as a `grpc_target` var reading `GRPC_TARGET` (`_2`, … for more). */
function targetRef(c: Correlator, url: URL): string {
  const known = targets.get(c) ?? new Map<string, string>();
  targets.set(c, known);
  const target = `${url.protocol === "https:" ? "grpcs" : "grpc"}://${url.host}`;
  let ref = known.get(target);
  if (ref === undefined) {
    const n = known.size;
    const name = c.varNames.take(n === 0 ? "grpc_target" : `grpc_target_${n + 1}`);
    const env = n === 0 ? "GRPC_TARGET" : `GRPC_TARGET_${n + 1}`;
    c.env.set(env, {
      about: "the gRPC server (grpc://host:port, grpcs:// for TLS)",
      fallback: target,
    });
    c.vars.push([name, c.sp.envRef(env, target)]);
    known.set(target, ref = c.sp.varRef(name));
  }
  return ref;
}

function parsed(text: string | undefined): unknown {
  try {
    return JSON.parse(text ?? "");
  } catch {
    return undefined;
  }
}
