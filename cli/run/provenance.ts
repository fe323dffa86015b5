/**
 * Where the run happened, for the HTML report: the CI's provenance, the
 * platform, the versions, and the names (never the values) of the
 * environment variables the flows read, as the manifest records them.
 *
 * @module
 */

/**
 * The provenance lines of the HTML report.
 *
 * @example
 * ```ts
 * import { provenance } from "./provenance.ts";
 * const lines = await provenance(() => undefined, new Set(["TOKEN", "BASE_URL"]));
 * if (lines.environment !== "BASE_URL, TOKEN" || !lines.platform) throw new Error();
 * ```
 */
export async function provenance(
  env: (name: string) => string | undefined,
  envRead: ReadonlySet<string>,
): Promise<Record<string, string>> {
  const { ciProvenance } = await import("../../lib/report/ci_provenance.ts");
  const ci = ciProvenance(env);
  const out: Record<string, string> = {
    platform: `${Deno.build.os} ${Deno.build.arch}`,
    deno: Deno.version.deno,
  };
  if (ci) {
    for (const [key, value] of Object.entries(ci)) if (value) out[key] = String(value);
  }
  if (envRead.size > 0) out.environment = [...envRead].sort().join(", ");
  return out;
}
