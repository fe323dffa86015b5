/**
 * The environment variables a flow sends as credentials, whose `${ENV.X:-default}` default the
 * export leaves out: a load script holds no literal credential, even one the flow file wrote as
 * a default. Where a value goes decides, never its name: the secret places `secretInputs`
 * traces (through the vars that hold it; a WebSocket, SSE or gRPC step's headers and metadata
 * too), and the fields of an auth block.
 *
 * @module
 */
import type { Flow } from "../model/flow.ts";
import { secretInputs } from "../secrets/discover.ts";
import type { Place } from "./scope.ts";

/**
 * The environment variables `flow` sends in secret places, directly or through a var.
 *
 * @example
 * ```ts
 * import { loadFlow } from "../load/load_flow.ts";
 * import { secretEnvOf } from "./secret_env.ts";
 * const { flow } = loadFlow(
 *   "name: f\nvars: {pw: '${ENV.PW:-x}'}\nsteps:\n  - name: a\n    request:\n      url: http://x.test/\n      headers: {x-api-key: '${vars.pw}', x-trace: '${ENV.T:-t}'}\n",
 *   "f.yaml",
 * );
 * const env = secretEnvOf(flow!);
 * if (!env.has("PW") || env.has("T")) throw new Error([...env].join());
 * ```
 */
export function secretEnvOf(flow: Flow): Set<string> {
  const inputs = secretInputs(flow);
  const env = new Set(inputs.env);
  for (const v of flow.vars) {
    if (inputs.vars.has(v.name)) { for (const name of envNames(v.value)) env.add(name); }
  }
  // What an auth block reads is a credential by its place, as a secret header's value is.
  for (const auth of [flow.auth, ...flow.steps.map((step) => step.auth)]) {
    for (const name of envNames(auth)) env.add(name);
  }
  return env;
}

/**
 * Whether the default of `${ENV.name:-…}` is left out here, saying so once per flow: a
 * credential's, by {@linkcode secretEnvOf}.
 */
export function dropsDefault(place: Place, name: string): boolean {
  if (!place.secretEnv?.has(name)) return false;
  const what = `\${ENV.${name}}'s default is left out: a credential is never a literal of the ` +
    `load script; set ${name} where Artillery runs`;
  if (!place.scope.notes.some((n) => n.flow === place.flow && n.what === what)) {
    place.scope.notes.push({ flow: place.flow, step: undefined, what });
  }
  return true;
}

/** The environment variables an expression tree names. */
function envNames(value: unknown, into: string[] = []): string[] {
  if (Array.isArray(value)) {
    for (const v of value) envNames(v, into);
  } else if (value !== null && typeof value === "object") {
    const ref = (value as { ref?: { kind?: string; name?: string } }).ref;
    if (ref?.kind === "env" && ref.name !== undefined) into.push(ref.name);
    for (const v of Object.values(value)) envNames(v, into);
  }
  return into;
}
