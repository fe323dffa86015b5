/**
 * A gRPC step's `metadata`: a map of names to values that may hold
 * `${…}`, sent as request metadata. Names are lower-cased (HTTP/2 sends
 * them so); `grpc-` names are gRPC's own and `-bin` names carry bytes, so
 * both are refused where they are written.
 *
 * @module
 */
import type { Node } from "yaml";
import { isMap, isScalar } from "../yaml_nodes.ts";
import type { Template } from "../../model/template.ts";
import type { KindReading } from "../kind.ts";

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
    if (!/^[0-9a-z_.-]+$/.test(lower) || lower.startsWith("grpc-") || lower.endsWith("-bin")) {
      reading.problem(
        "bad-header",
        `"${name}" cannot be sent as gRPC metadata: a name is letters, digits, "_", "." and "-", ` +
          `and "grpc-…" and "…-bin" names are gRPC's own.`,
        pair.key as Node,
        "Rename the metadata key (e.g. authorization, x-request-id).",
      );
      ok = false;
      continue;
    }
    const value = reading.template(pair.value as Node, `metadata "${name}" of a grpc step`);
    if (value) out.push([lower, value]);
    else ok = false;
  }
  return ok ? out : undefined;
}
