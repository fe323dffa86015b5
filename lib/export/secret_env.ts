/**
 * The environment variables a flow sends as credentials, whose `${ENV.X:-default}` default the
 * export leaves out: a load script holds no literal credential, even one the flow file wrote as
 * a default. Where a value goes decides, never its name: the secret places `secretInputs`
 * traces (through the vars that hold it), and the fields of an auth block.
 *
 * @module
 */
import type { Flow, Step } from "../model/flow.ts";
import { secretInputs } from "../secrets/discover.ts";
import { isSecretHeader } from "../secrets/names.ts";
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
  for (const value of flow.steps.flatMap(kindSecretValues)) {
    for (const name of envNames(value)) env.add(name);
    for (const v of flow.vars) {
      if (varNames(value).includes(v.name)) { for (const name of envNames(v.value)) env.add(name); }
    }
  }
  return env;
}

/**
 * What a WebSocket, SSE or gRPC step sends in a secret place: the values of
 * its secret headers (metadata), by the rule `secretInputs` applies to an
 * HTTP request's (which reads `request:` only, and a kind step's names the call).
 */
function kindSecretValues(step: Step): unknown[] {
  const spec = step.call?.spec as { headers?: unknown; metadata?: unknown } | undefined;
  if (!spec) return [];
  const headers = spec.headers as { kind?: string; entries?: unknown } | unknown[] | undefined;
  const pairs = [
    ...(Array.isArray(headers) ? headers : headers?.kind === "map" ? headers.entries as [] : []),
    ...(Array.isArray(spec.metadata) ? spec.metadata : []),
  ] as [string, unknown][];
  return pairs.filter(([name]) => isSecretHeader(name) || name.toLowerCase() === "cookie")
    .map(([, value]) => value);
}

/** The flow vars an expression tree reads. */
function varNames(value: unknown): string[] {
  const into: string[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node === null || typeof node !== "object") return;
    const ref = (node as { ref?: { kind?: string; name?: string } }).ref;
    if ((ref?.kind === "var" || ref?.kind === "name") && ref.name !== undefined) {
      into.push(ref.name);
    }
    Object.values(node).forEach(walk);
  };
  walk(value);
  return into;
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
