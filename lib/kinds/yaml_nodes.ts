/**
 * What kind of YAML node a value is, by the `Symbol.for("yaml.*")` mark
 * every node carries — the loader's fast path's nodes and the `yaml`
 * package's alike — without importing the package, which a run loads only
 * for flows its fast path cannot read (lib/load/yaml_engine.ts).
 *
 * @module
 */
import type { Scalar, YAMLMap, YAMLSeq } from "yaml";

const NODE_TYPE = Symbol.for("yaml.node.type");

const marked = (node: unknown, kind: string): boolean =>
  !!node && typeof node === "object" &&
  (node as Record<symbol, unknown>)[NODE_TYPE] === Symbol.for(`yaml.${kind}`);

/**
 * Whether `node` is a YAML map.
 *
 * @example
 * ```ts
 * import { isMap } from "./yaml_nodes.ts";
 * import { parseDocument } from "yaml";
 * if (!isMap(parseDocument("a: 1").contents) || isMap({})) throw new Error();
 * ```
 */
export const isMap = (node: unknown): node is YAMLMap<unknown, unknown> => marked(node, "map");

/**
 * Whether `node` is a YAML sequence.
 *
 * @example
 * ```ts
 * import { isSeq } from "./yaml_nodes.ts";
 * import { parseDocument } from "yaml";
 * if (!isSeq(parseDocument("[1]").contents) || isSeq([])) throw new Error();
 * ```
 */
export const isSeq = (node: unknown): node is YAMLSeq<unknown> => marked(node, "seq");

/**
 * Whether `node` is a YAML scalar.
 *
 * @example
 * ```ts
 * import { isScalar } from "./yaml_nodes.ts";
 * import { parseDocument } from "yaml";
 * if (!isScalar(parseDocument("a").contents) || isScalar("a")) throw new Error();
 * ```
 */
export const isScalar = (node: unknown): node is Scalar<unknown> => marked(node, "scalar");
