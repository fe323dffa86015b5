/**
 * One item of an Artillery scenario's `flow` as the export builds it, and
 * the shape of the function that makes a step's items (step.ts writes
 * steps; include.ts takes it as a parameter, so neither imports the other).
 *
 * @module
 */
import type { Flow, Step } from "../model/flow.ts";
import type { Place } from "./scope.ts";

/** One item of a scenario's flow, with the comment lines above it. */
export interface FlowItem {
  comments: string[];
  item: Record<string, unknown>;
}

/** How a step of `flow` at `place` becomes flow items. */
export type StepWriter = (step: Step, flow: Flow, place: Place) => FlowItem[];
