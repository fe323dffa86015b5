/**
 * A gRPC step's `metadata`: a map of names to values that may hold
 * `${…}`, sent as request metadata. Names are lower-cased (HTTP/2 sends
 * them so); `grpc-` names are gRPC's own, refused where they are written.
 * A `-bin` name carries bytes, written as base64 as a response's `-bin`
 * values are shown: a constant one is checked here, one an expression
 * makes when it is sent ({@linkcode binaryMetadata}).
 *
 * @module
 */
import type { Node } from "yaml";
import { isMap, isScalar } from "../yaml_nodes.ts";
import { isConstant } from "../../expr/template.ts";
import type { Template } from "../../model/template.ts";
import type { KindReading } from "../kind.ts";
import { around, tell, type Told, told } from "../../model/told.ts";

/**
 * The metadata pairs, or `undefined` after problems.
 *
 * @example
 * ```ts
 * import { readMetadata } from "./read_metadata.ts";
 * if (typeof readMetadata !== "function") throw new Error();
 * ```
 */
export function readMetadata(
  node: Node | null | undefined,
  reading: KindReading,
): [string, Template][] | undefined {
  if (node === undefined || node === null) return [];
  if (!isMap(node)) {
    reading.problem(
      "wrong-type",
      `Expected "metadata" of a grpc step to be a map, got ${JSON.stringify(reading.plain(node))}.`,
      node,
      'Write a map of names to values, e.g. metadata: {authorization: "Bearer ${ENV.TOKEN}"}.',
    );
    return undefined;
  }
  const out: [string, Template][] = [];
  let ok = true;
  for (const pair of node.items) {
    const name = isScalar(pair.key) ? String(pair.key.value) : "";
    const lower = name.toLowerCase();
    if (!/^[0-9a-z_.-]+$/.test(lower) || lower.startsWith("grpc-") || lower === "-bin") {
      reading.problem(
        "bad-header",
        `"${name}" cannot be sent as gRPC metadata: a name is letters, digits, "_", "." and "-", ` +
          `and "grpc-…" names are gRPC's own.`,
        pair.key as Node,
        "Rename the metadata key (e.g. authorization, x-request-id).",
      );
      ok = false;
      continue;
    }
    const value = reading.template(pair.value as Node, `metadata "${name}" of a grpc step`);
    const bytes = value && isConstant(value) ? binaryMetadata(lower, value.source) : undefined;
    if (bytes && "words" in bytes) {
      // The flow's own constant, before anything is sent: its text as written.
      reading.problem("bad-base64", tell(bytes), pair.value as Node, BASE64_HINT);
      ok = false;
    } else if (value) out.push([lower, value]);
    else ok = false;
  }
  return ok ? out : undefined;
}

const BASE64_HINT =
  'Write the bytes as standard base64 (A-Z, a-z, 0-9, + and /, padded with =), e.g. "aGVsbG8=".';

/**
 * The bytes a `-bin` name's value stands for (base64, whitespace aside),
 * or the sentence saying it is not base64; `undefined` for other names,
 * whose values are sent as text.
 *
 * @example
 * ```ts
 * import { binaryMetadata } from "./read_metadata.ts";
 * const bytes = binaryMetadata("x-trace-bin", "AAEC/w==");
 * if (!(bytes instanceof Uint8Array) || bytes[3] !== 255) throw new Error();
 * const bad = binaryMetadata("x-trace-bin", "no!");
 * if (!bad || !("words" in bad) || bad.values[0] !== "no!") throw new Error();
 * if (binaryMetadata("x-trace", "no!") !== undefined) throw new Error();
 * ```
 */
export function binaryMetadata(name: string, value: string): Uint8Array | Told | undefined {
  if (!name.endsWith("-bin")) return undefined;
  const bare = value.replace(/\s+/g, "");
  if (bare.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(bare)) {
    const shown = value.length > 40 ? `${value.slice(0, 37)}...` : value;
    // The name is the flow's; the value an expression may have made: a value.
    return around(
      `The value of "${name}" is not base64 (a -bin name carries bytes): `,
      told`"${shown}"`,
      ".",
    );
  }
  return Uint8Array.from(atob(bare), (c) => c.charCodeAt(0));
}
