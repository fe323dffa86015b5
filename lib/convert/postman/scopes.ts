/**
 * Newman's variable scopes, as it was run (tests/convert/postman_scopes_test.ts runs it): `{{x}}`
 * and `pm.variables.get` read the value of the highest scope holding one (local > data >
 * environment > collection > global); `pm.environment.get`, `pm.collectionVariables.get`,
 * `pm.globals.get` and the legacy getters read their own scope only, `undefined` when only another
 * scope holds it. A set in a scope under one that holds the value changes no `{{x}}`.
 *
 * @module
 */
import type { Sym } from "./script/sym.ts";

/**
 * A Postman variable's meaning where a script reads it, by the getter's scope (none: by
 * precedence); `winner` tells the scope holding it before the script runs; `given` the value
 * the collection's files give it when no earlier step set it, read without asking for it.
 */
export type VariableReader = ((name: string, scope?: VarScope) => Sym | undefined) & {
  winner?: (name: string) => VarScope | undefined;
  given?: (name: string) => string | undefined;
};

/** Calls that read a Postman variable by name. */
export const VARIABLE_GETTERS: ReadonlySet<string> = new Set([
  "pm.environment.get",
  "pm.variables.get",
  "pm.collectionVariables.get",
  "pm.globals.get",
  "postman.getEnvironmentVariable",
  "postman.getGlobalVariable",
]);

/** A scope a Postman variable lives in. */
export type VarScope = "global" | "collection" | "environment" | "data" | "local";

/** Precedence, lowest first. */
const ORDER: readonly VarScope[] = ["global", "collection", "environment", "data", "local"];

/** The scope each getter and writer names; one missing reads by precedence (`pm.variables.get`). */
const SCOPE_OF: Record<string, VarScope> = {
  environment: "environment",
  collectionVariables: "collection",
  globals: "global",
  variables: "local",
  iterationData: "data",
  data: "data",
  EnvironmentVariable: "environment",
  GlobalVariable: "global",
};

/**
 * The scope a call or legacy member names: `pm.globals.get` → `global`,
 * `postman.setEnvironmentVariable` → `environment`, `pm.variables.set` → `local`; `undefined`
 * for `pm.variables.get`, which reads by precedence.
 *
 * @example
 * ```ts
 * import { scopeOf } from "./scopes.ts";
 * if (scopeOf("pm.environment.get") !== "environment" || scopeOf("postman.getGlobalVariable") !== "global") throw new Error();
 * if (scopeOf("pm.variables.get") !== undefined || scopeOf("pm.variables.set") !== "local") throw new Error();
 * ```
 */
export function scopeOf(callee: string): VarScope | undefined {
  if (callee === "pm.variables.get" || callee === "pm.variables.has") return undefined;
  const legacy = callee.match(/^postman\.(?:get|set|clear)(\w+Variable)$/);
  if (legacy) return SCOPE_OF[legacy[1]];
  const part = callee.match(/^(?:pm\.)?(\w+)\.\w+$/)?.[1];
  return part === undefined ? undefined : SCOPE_OF[part];
}

/** The highest of `scopes` by Newman's precedence. */
function highest(scopes: Iterable<VarScope>): VarScope | undefined {
  let top: VarScope | undefined;
  for (const s of scopes) if (top === undefined || ORDER.indexOf(s) > ORDER.indexOf(top)) top = s;
  return top;
}

/**
 * Whether scope `a` is above `b` (`b` undefined: nothing holds the value).
 *
 * @example
 * ```ts
 * import { above } from "./scopes.ts";
 * if (!above("environment", "collection") || above("global", "collection") || !above("global", undefined)) throw new Error();
 * ```
 */
export function above(a: VarScope, b: VarScope | undefined): boolean {
  return b === undefined || ORDER.indexOf(a) > ORDER.indexOf(b);
}

/**
 * Which scopes hold each variable, as the run goes: the files' own (globals, collection,
 * environment), then what scripts set and unset.
 *
 * @example
 * ```ts
 * import { Holders } from "./scopes.ts";
 * const h = new Holders();
 * h.add("token", "collection");
 * h.add("token", "global");
 * if (h.winner("token") !== "collection" || !h.has("token", "global") || h.has("token", "environment")) throw new Error();
 * h.remove("token", "collection");
 * if (h.winner("token") !== "global") throw new Error();
 * ```
 */
export class Holders {
  readonly #held = new Map<string, Set<VarScope>>();

  add(name: string, scope: VarScope): void {
    const set = this.#held.get(name) ?? new Set();
    set.add(scope);
    this.#held.set(name, set);
  }

  remove(name: string, scope: VarScope): void {
    this.#held.get(name)?.delete(scope);
  }

  has(name: string, scope: VarScope): boolean {
    return this.#held.get(name)?.has(scope) ?? false;
  }

  /** Whether any scope holds it: else it is the user's to give, in a scope not known here. */
  known(name: string): boolean {
    return (this.#held.get(name)?.size ?? 0) > 0;
  }

  /** The scope whose value `{{name}}` reads. */
  winner(name: string): VarScope | undefined {
    return highest(this.#held.get(name) ?? []);
  }
}

/** The key of a value a script set in one scope, as its later statements read it. */
const key = (name: string, scope: VarScope) => `${scope}\u0000${name}`;

/**
 * A script's own values, by scope: what a later statement of the same script reads.
 *
 * @example
 * ```ts
 * import { ScriptValues } from "./scopes.ts";
 * const v = new ScriptValues<string>();
 * v.set("x", "global", "g");
 * if (v.get("x", "environment") !== null || v.get("x", "global") !== "g") throw new Error();
 * if (v.get("x", undefined, "collection") !== null || v.get("x", undefined, undefined) !== "g") throw new Error();
 * ```
 */
export class ScriptValues<T> {
  readonly #values = new Map<string, T>();
  readonly #scopes = new Map<string, Set<VarScope>>();

  set(name: string, scope: VarScope, value: T): void {
    this.#values.set(key(name, scope), value);
    this.#scopes.set(name, (this.#scopes.get(name) ?? new Set()).add(scope));
  }

  /**
   * What `scope`'s getter reads of what this script set (by precedence when `scope` is
   * undefined, unless `outer`, the scope holding it before the script, is above); `null`: the
   * script set nothing it reads.
   */
  get(name: string, scope: VarScope | undefined, outer?: VarScope): T | null {
    const top = scope ?? highest(this.#scopes.get(name) ?? []);
    if (top === undefined || !this.#values.has(key(name, top))) return null;
    if (scope === undefined && outer !== undefined && above(outer, top)) return null;
    return this.#values.get(key(name, top))!;
  }

  /** A reader of what this script set, else of what `variable` reads. */
  over(variable: VariableReader): (name: string, scope?: VarScope) => T | Sym | undefined {
    return (n, s) => {
      // What this script set, unless another scope above it holds the value already.
      const own = this.get(n, s, s === undefined ? variable.winner?.(n) : undefined);
      return own !== null ? own : variable(n, s);
    };
  }
}
