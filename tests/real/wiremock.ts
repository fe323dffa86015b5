/**
 * How the tests of tests/real/ start WireMock, the HTTP mock server (Java),
 * from its npm package `wiremock`, which ships the standalone jar: on
 * 127.0.0.1, a port it picks itself (`--port 0`, printed as `port: N`), its
 * mappings and files in the instance's own folder (`--root-dir`). Its admin
 * API (`/__admin/…`) serves its own OpenAPI document at
 * `/__admin/docs/swagger` and a Swagger UI at `/__admin/swagger-ui/`.
 *
 * @module
 */
import type { Launch, Pinned } from "./servers.ts";

/** WireMock's npm package: the standalone jar, run by Java 11 or later. */
export const WIREMOCK: Pinned = { name: "wiremock", version: "3.13.2" };

/** Where the admin API serves its own OpenAPI 3 document. */
export const WIREMOCK_DOCUMENT = "/__admin/docs/swagger";

/**
 * Why the WireMock tests cannot run here ("" when they can): no `java` on
 * the PATH. With `CI` set that is an error, like a failed install.
 *
 * @example
 * ```ts
 * import { javaMissing } from "./wiremock.ts";
 * if (typeof javaMissing() !== "string") throw new Error();
 * ```
 */
export function javaMissing(): string {
  try {
    const out = new Deno.Command("java", { args: ["-version"], stdout: "null", stderr: "null" })
      .outputSync();
    if (out.success) return "";
    if (Deno.env.get("CI")) throw new Error(`java -version failed (exit ${out.code})`);
    return ` [ignored: java -version failed (exit ${out.code}); with CI set this fails]`;
  } catch {
    if (Deno.env.get("CI")) throw new Error("java is not on the PATH: WireMock needs Java 11+");
    return " [ignored: java is not on the PATH (WireMock needs Java 11+); with CI set this fails]";
  }
}

/** WireMock prints `port:                         36631` once it listens. */
function wiremockOrigin(out: string): string | undefined {
  const port = /^port:\s+(\d+)\s*$/m.exec(out)?.[1];
  return port ? `http://127.0.0.1:${port}` : undefined;
}

/**
 * WireMock installed under `prefix`, started as its jar, every start with
 * an empty root folder of its own (no mappings, no files).
 *
 * @example
 * ```ts
 * import { wiremockLaunch } from "./wiremock.ts";
 * const launch = wiremockLaunch("/cache/prefix");
 * if (launch.command[0] !== "java" || launch.probe !== "/__admin/health") throw new Error();
 * ```
 */
export function wiremockLaunch(prefix: string): Launch {
  const jar = `${prefix}/node_modules/wiremock/build/wiremock-standalone-${WIREMOCK.version}.jar`;
  return {
    command: [
      "java",
      // A small heap and one compiler thread: two cores are shared by the tests running at once.
      "-Xmx256m",
      "-XX:TieredStopAtLevel=1",
      "-jar",
      jar,
      "--port",
      "0",
      "--bind-address",
      "127.0.0.1",
      "--root-dir",
      "DIR",
      "--disable-banner",
    ],
    seed: async (dir) => {
      await Deno.mkdir(`${dir}/mappings`);
      await Deno.mkdir(`${dir}/__files`);
    },
    origin: wiremockOrigin,
    probe: "/__admin/health",
  };
}
