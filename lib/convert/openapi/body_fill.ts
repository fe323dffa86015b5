/**
 * What each filler of a step's request body is given (answered_values.ts,
 * body_links.ts, own_item.ts read earlier steps' answers into it): one
 * shape, so the three take the same step the same way.
 *
 * @module
 */
import type { YNode } from "../yaml_out.ts";
import type { OpenApiOperation } from "./operations.ts";

/**
 * A step's request being filled from earlier steps' answers: `op`, its
 * request fields (`body`, changed in place), the captures the step reads
 * (`guards`: it runs only when they exist), the flow's steps so far
 * (`stepOf`, in order, each operation's step name) and `capture`, which
 * names a step's capture of a JSONPath (and adds it).
 *
 * @example
 * ```ts
 * import type { BodyFill } from "./body_fill.ts";
 * import type { OpenApiOperation } from "./operations.ts";
 * const op = { method: "POST", template: "/orders" } as OpenApiOperation;
 * const capture = (step: string, key: string) => `\${steps.${step}.capture.${key}}`;
 * const fill: BodyFill = { op, body: { fields: [] }, guards: [], stepOf: new Map(), capture };
 * if (fill.capture("add_pet", "id", "$.json.id") !== "${steps.add_pet.capture.id}") throw new Error();
 * ```
 */
export interface BodyFill {
  op: OpenApiOperation;
  body: { fields: [string, YNode][] };
  guards: string[];
  stepOf: ReadonlyMap<OpenApiOperation, string>;
  capture: (step: string, key: string, source: YNode) => string;
  /** Conditions of other kinds the step runs only when they hold (`{value, gte}`). */
  ifs?: YNode[];
}
