/**
 * What a call on a variable scope does: `pm.environment.set(name, value)`
 * (and its collection, global, local and legacy spellings) sets a variable
 * (set_value.ts says how); `pm.environment.unset(name)` (and its spellings)
 * removes it, so Postman sends a later `{{name}}` as written and a later
 * `get` is `undefined`: left out, a later request would send the value set
 * before. `clear()` of a whole scope stays a comment, and marks the translation
 * `cleared`.
 *
 * @module
 */
import { countsOn } from "./counter.ts";
import { dotted, type EvalContext, evaluate } from "./eval.ts";
import type { Node } from "./parse.ts";
import { setOf } from "./set_value.ts";
import type { Cond, Sym } from "./sym.ts";
import type { Translation } from "./translation.ts";
import { scopeOf, type ScriptValues, type VarScope } from "../scopes.ts";

/** Calls that set a Postman variable: `(name, value)`. */
export const SETTERS: ReadonlySet<string> = new Set([
  "pm.environment.set",
  "pm.collectionVariables.set",
  "pm.globals.set",
  "pm.variables.set",
  "postman.setEnvironmentVariable",
  "postman.setGlobalVariable",
]);

/** Calls that remove one variable: `(name)`. */
const UNSETTERS = new Set([
  "pm.environment.unset",
  "pm.collectionVariables.unset",
  "pm.globals.unset",
  "pm.variables.unset",
  "postman.clearEnvironmentVariable",
  "postman.clearGlobalVariable",
]);

/** Calls that write a variable: a statement left as a comment that holds one breaks its chain. */
export const WRITERS: ReadonlySet<string> = new Set([...SETTERS, ...UNSETTERS]);

/** Calls that empty a scope: every variable set before is gone from it. */
const CLEARERS =
  /^(?:pm\.(?:environment|collectionVariables|globals|variables)\.clear|postman\.clear(?:Environment|Global)Variables)$/;

/** Calls with no effect on what a run sends or checks. */
const IGNORED = /^console\.\w+$/;

/** Where a scope call writes: the step's translation, the script's own later reads. */
export interface ScopeTarget {
  out: Translation;
  /** What the script set, by scope: a later getter of another scope does not read it. */
  local: ScriptValues<Sym>;
  /** Whether an `if` on the response decides whether the call runs. */
  guarded: boolean;
  /** Those `if`s, when every one is on the response (a capture's `when`). */
  when?: Cond[];
}

/**
 * What call `e` does to the variables, added to `to`: `"done"`, `"comment"`
 * when it is one flowrun cannot express (the statement stays a comment, the
 * variable it names dropped), `false` when it is no scope call.
 *
 * @example
 * ```ts
 * import { scopeCall } from "./scope_call.ts";
 * import { ScriptValues } from "../scopes.ts";
 * import { parseScript } from "./parse.ts";
 * const p = parseScript('pm.environment.unset("token")');
 * if (!p.ok) throw new Error();
 * const ctx = { scope: new Map(), tests: new Map(), variable: () => ({ k: "lit" as const, value: undefined }) };
 * const out = { captures: [], sets: [], dropped: [] } as unknown as Parameters<typeof scopeCall>[2]["out"];
 * if (scopeCall(p.program.body[0].expression, ctx, { out, local: new ScriptValues(), guarded: false }) !== "done") throw new Error();
 * if (out.sets[0].kind !== "unset" || out.sets[0].value !== "{{token}}") throw new Error(JSON.stringify(out));
 * ```
 */
export function scopeCall(
  e: Node,
  ctx: EvalContext,
  to: ScopeTarget,
): "done" | "comment" | false {
  const callee = e.type === "CallExpression" ? dotted(e.callee) : undefined;
  if (!callee) return false;
  if (IGNORED.test(callee)) return "done";
  // Which variables another scope still holds is not known here: flow.ts breaks every chain.
  if (CLEARERS.test(callee)) return (to.out.cleared = true), "comment";
  const setter = SETTERS.has(callee);
  if (!setter && !UNSETTERS.has(callee)) return false;
  const [key, value] = e.arguments.map((a: Node) => evaluate(a, ctx, 0));
  if (key?.k !== "lit" || typeof key.value !== "string") return "comment";
  const name = key.value;
  const scope = scopeOf(callee) ?? "local";
  if (!setter) return unsetCall(name, scope, to);
  // A counter gives another value on each pass: no value known now (counter.ts).
  if (countsOn(e.arguments[1], name, value, ctx)) return dropped(to.out, name);
  if (value) to.local.set(name, scope, value);
  const out = value ? setOf(name, value, to.guarded, to.when) : undefined;
  if (!out) return dropped(to.out, name);
  to.out.captures.push(...out.captures.map((c) => ({ ...c, scope })));
  to.out.sets.push(...out.sets.map((s) => ({ ...s, scope })));
  return "done";
}

/** `unset(name)`: a later `{{name}}` is sent as written, a later `get` is `undefined`. */
function unsetCall(name: string, scope: VarScope, to: ScopeTarget): "done" | "comment" {
  // Removed only when the response says so: a flow cannot say that, the chain is broken.
  if (to.guarded) return dropped(to.out, name);
  to.local.set(name, scope, { k: "lit", value: undefined });
  to.out.sets.push({ name, value: `{{${name}}}`, kind: "unset", scope });
  return "done";
}

/** A write flowrun cannot express: later reads of `name` are named in the summary. */
function dropped(out: Translation, name: string): "comment" {
  if (!out.dropped.includes(name)) out.dropped.push(name);
  return "comment";
}

/**
 * A statement not translated: the variables it sets (`inside`, and the one scope_call.ts dropped
 * just before) are dropped, each with the lines `shown` beside its step (the declarations it
 * reads first), joined into one, for the summary to name.
 *
 * @example
 * ```ts
 * import { droppedBy } from "./scope_call.ts";
 * const out = { dropped: ["a"] } as unknown as Parameters<typeof droppedBy>[0];
 * droppedBy(out, ["b"], ["const x = pm.environment.get('a')", "pm.environment.set('b', x.toUpperCase());"]);
 * const said = out.droppedLines?.get("b");
 * if (out.dropped.join() !== "a,b" || said !== "const x = pm.environment.get('a'); pm.environment.set('b', x.toUpperCase());") {
 *   throw new Error(said);
 * }
 * ```
 */
export function droppedBy(out: Translation, inside: Iterable<string>, shown: string[]): void {
  // One line of text: a statement written without its `;` gets one, so two read as two.
  const said = shown.map((l) => /[;{},]$/.test(l) ? l : `${l};`).join(" ");
  const lines = out.droppedLines ??= new Map();
  for (const name of out.dropped) if (!lines.has(name)) lines.set(name, said);
  for (const name of inside) {
    if (!out.dropped.includes(name)) out.dropped.push(name);
    lines.set(name, said);
  }
}
