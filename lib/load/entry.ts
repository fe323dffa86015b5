/**
 * The two shapes every section reader passes around: a map's entry (its
 * key, key node and value) and where a template is used (checked once step
 * order is known).
 *
 * @module
 */
import type { Node } from "yaml";
import type { Template } from "../expr/template.ts";

/** A key of a YAML map, its node and its value. */
export interface Entry {
  key: string;
  keyNode: Node;
  value: Node | null;
}

/**
 * A step using a template; `capture` when it is a capture's `when` or `otherwise`, which may
 * read the same step's captures written above it (taken first, in the order written).
 */
export interface StepOwner {
  kind: "step";
  index: number;
  capture?: { name: string; above: readonly string[] };
}

/** Where a template is used, for checking its references once step order is known. */
export interface TemplateUse {
  template: Template;
  node: Node;
  /** Index of the var defining it, or of the step (in listed order) using it. */
  owner: { kind: "var"; index: number } | StepOwner | { kind: "outputs" };
  /** Evaluated once outside a foreach's iterations (its list, its `if`): the element is not in scope. */
  outer?: boolean;
  /** The alias it was read through, when it is part of an anchor's value. */
  via?: { alias: Node; target: Node };
}
