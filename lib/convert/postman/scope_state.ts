/**
 * Which scope holds each variable as the converted run goes, and what a scoped getter reads
 * (scopes.ts says Newman's rules): the flows keep one value per variable, the one `{{x}}` reads;
 * a value set in a scope under the one holding it is kept here, for that scope's own getter.
 *
 * @module
 */
import { Holders, type VariableReader, type VarScope } from "./scopes.ts";
import type { Sym } from "./script/sym.ts";
import { madeKind, type RowKind } from "./script/data_row.ts";
import type { Translation } from "./script/translation.ts";
// What a read of a captured variable is besides its expression: text, when kept `as: string`.
export { noteCapture, textOf, texts } from "./text_captures.ts";

/** A write by scope: a set (its value as a later getter reads it; unknown: undefined) or an unset. */
export interface ScopedWrite {
  name: string;
  scope?: VarScope;
  unset?: boolean;
  value?: Sym;
}

/**
 * The scopes of a conversion's variables.
 *
 * @example
 * ```ts
 * import { ScopeState } from "./scope_state.ts";
 * const s = new ScopeState();
 * s.file("token", "collection", "");
 * if (s.write({ name: "token", scope: "global", value: { k: "lit", value: "t" } }, 0) !== "none") throw new Error();
 * if (s.read("token", "environment", 0)?.k !== "lit") throw new Error();
 * const g = s.read("token", "global", 0);
 * if (g?.k !== "lit" || g.value !== "t" || s.read("token", undefined, 0) !== null) throw new Error();
 * ```
 */
export class ScopeState {
  /** `secret`: whether a variable is a credential, whose file value is never read into a flow. */
  constructor(readonly secret: (name: string) => boolean = () => false) {}

  readonly holders = new Holders();
  /** The data file's columns every row gives (whether as numbers) and the flow var each is. */
  readonly rows = new Map<string, { kind: RowKind; expr: string }>();
  /** Values a scope under the one `{{x}}` reads holds, by `scope\0name`, with the flow that set it. */
  readonly #shadowed = new Map<string, { flow: number; value?: Sym }>();

  /** A value a file (globals, collection, environment) gives. */
  file(name: string, scope: VarScope, value: string): void {
    this.holders.add(name, scope);
    this.#shadowed.set(`${scope}\u0000${name}`, { flow: -1, value: { k: "lit", value } });
  }

  /**
   * What `scope`'s getter reads in flow `flow`: `null` when it is the value `{{name}}` reads
   * (or nothing says which scope holds it: the user gives it); `undefined` when not known here.
   */
  read(name: string, scope: VarScope | undefined, flow: number): Sym | undefined | null {
    // Iteration data: a column of the data file reads as `{{name}}` does; any other name is
    // `undefined`, as in Newman (run without `-d`, every name).
    if (scope === "data") {
      return this.holders.has(name, "data") ? null : { k: "lit", value: undefined };
    }
    if (scope === undefined || !this.holders.known(name)) return null;
    if (!this.holders.has(name, scope)) return { k: "lit", value: undefined };
    if (this.holders.winner(name) === scope) return null;
    const kept = this.#shadowed.get(`${scope}\u0000${name}`);
    if (kept?.value?.k === "lit") return this.secret(name) ? undefined : kept.value;
    // A step's capture is read in its own flow only.
    return kept?.flow === flow ? kept.value : undefined;
  }

  /**
   * What `{{name}}` reads once an unset uncovered a lower scope's value (`write` said `drop`):
   * a set of that value when known here (a file's, or one a step of flow `flow` captured),
   * else `undefined` (the chain breaks).
   */
  uncovered(name: string, flow: number): Translation["sets"][number] | undefined {
    const scope = this.holders.winner(name);
    const kept = scope && this.#shadowed.get(`${scope}\u0000${name}`);
    const v = kept?.value;
    if (v?.k === "lit" && ["string", "number", "boolean"].includes(typeof v.value)) {
      return this.secret(name) ? undefined : { name, value: String(v.value), kind: "text" };
    }
    return v?.k === "var" && kept!.flow === flow
      ? { name, value: v.expr, kind: "expr" }
      : undefined;
  }

  /**
   * What a write does to `{{name}}`: `flat` when it is the value read from now on, `none` when a
   * scope above holds it, `drop` when an unset uncovers a lower scope's value (`uncovered`).
   */
  write(w: ScopedWrite, flow: number): "flat" | "none" | "drop" {
    const { name, scope } = w;
    if (scope === undefined) return "flat";
    const at = `${scope}\u0000${name}`;
    if (w.unset) {
      if (!this.holders.has(name, scope)) return "none";
      const top = this.holders.winner(name) === scope;
      this.holders.remove(name, scope);
      this.#shadowed.delete(at);
      if (!top) return "none";
      return this.holders.known(name) ? "drop" : "flat";
    }
    this.holders.add(name, scope);
    // Kept for the top scope too: an unset above it later uncovers it (`uncovered`).
    this.#shadowed.set(at, { flow, value: w.value });
    return this.holders.winner(name) === scope ? "flat" : "none";
  }
}

/**
 * A script's set as a scoped write: its value as a later getter of its scope reads it (a value
 * made at run time is not known here).
 *
 * @example
 * ```ts
 * import { writeOf } from "./scope_state.ts";
 * const w = writeOf({ name: "id", value: "${vars.x}", kind: "expr", scope: "environment" });
 * if (w.value?.k !== "var" || writeOf({ name: "id", value: "{{id}}", kind: "unset" }).unset !== true) throw new Error();
 * ```
 */
export function writeOf(
  set: { name: string; value: string; kind: string; scope?: VarScope },
): ScopedWrite {
  const { name, scope } = set;
  if (set.kind === "unset") return { name, scope, unset: true };
  if (set.kind === "text") return { name, scope, value: { k: "lit", value: set.value } };
  return {
    name,
    scope,
    value: set.kind === "expr" ? { k: "var", name, expr: set.value } : undefined,
  };
}

/**
 * A script's reader of variables: `variable` by the getter's scope, and the scope holding each
 * before the script runs, for what the script itself sets under it; `given`, the files' value.
 *
 * @example
 * ```ts
 * import { ScopeState, scriptReader } from "./scope_state.ts";
 * const s = new ScopeState();
 * s.file("page", "collection", "1");
 * const read = scriptReader(() => undefined, s);
 * if (read.winner?.("page") !== "collection") throw new Error();
 * ```
 */
/** A flow var read whole (`${vars.code}`), as the flow reads a variable the files give. */
const FLOW_VAR = /^\$\{vars\.[A-Za-z0-9_-]+\}$/;

export function scriptReader(
  variable: (name: string, scope?: VarScope) => Sym | undefined,
  scopes: ScopeState,
  given?: (name: string) => string | undefined,
): VariableReader {
  // A data column read as its row's flow var is known defined (a number) when every row gives it.
  const read = (n: string, s?: VarScope) => {
    const v = variable(n, s);
    const row = scopes.rows.get(n);
    if (v?.k === "var" && row?.expr === v.expr) return { ...v, row: row.kind };
    // The files' text of a flow var read from them (not a secret or an environment variable,
    // which are `${ENV.…}`): a text method of it is worked out now (either.ts).
    const file = v?.k === "var" && FLOW_VAR.test(v.expr) ? given?.(n) : undefined;
    return file !== undefined ? { ...v!, file } : v;
  };
  return Object.assign(read, { winner: (n: string) => scopes.holders.winner(n), given });
}

/**
 * The kind a flow var a script made always holds (`${RANDOM.DIGITS_3}`, made for a
 * `{{$randomInt}}`, a whole number), as a variable's `row`: `parseInt` of it is the var.
 *
 * @example
 * ```ts
 * import { madeRow } from "./scope_state.ts";
 * if (madeRow("${RANDOM.DIGITS_3}").row !== "integer" || "row" in madeRow(undefined)) throw new Error();
 * ```
 */
export function madeRow(made: string | undefined): { row?: RowKind } {
  const kind = made === undefined ? undefined : madeKind(made);
  return kind ? { row: kind } : {};
}
