/**
 * A document converted by `flowrun convert openapi` into a temporary folder,
 * and its suite run against a stand-in exactly as the summary prints it
 * (`Run: flowrun …`), with only `BASE_URL` set: the shape of the converter's
 * tests that check what a real server would accept.
 */
import assert from "node:assert/strict";
import { type CliRun, runCli } from "./cli.ts";

/** A stand-in server the suite runs against. */
export interface StandIn {
  base: string;
  close(): Promise<void>;
}

/** What a conversion and its runs left: the summary, each run, and the flows' texts by file name. */
export interface SuiteRuns {
  summary: string;
  runs: CliRun[];
  flows: Map<string, string>;
}

/**
 * Writes `document`, converts it, and runs the printed command `runs` times
 * (with `extra` arguments, and run i with `env[i]` beside `BASE_URL`) against `server`, which it
 * closes.
 *
 * @example
 * ```ts
 * import { convertAndRunSuite } from "./openapi_suite.ts";
 * if (typeof convertAndRunSuite !== "function") throw new Error();
 * ```
 */
export async function convertAndRunSuite(
  document: unknown,
  server: StandIn,
  options: { runs?: number; extra?: string[]; env?: Record<string, string>[] } = {},
): Promise<SuiteRuns> {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-openapi-suite-" });
  try {
    await Deno.writeTextFile(`${dir}/api.json`, JSON.stringify(document, null, 2));
    const converted = await runCli(["convert", "openapi", `${dir}/api.json`, "-o", `${dir}/flows`]);
    assert.equal(converted.code, 0, converted.stderr);
    const line = /^Run: flowrun (.*)$/m.exec(converted.stderr)?.[1];
    assert.ok(line, converted.stderr);
    const runs: CliRun[] = [];
    for (let i = 0; i < (options.runs ?? 1); i++) {
      runs.push(
        await runCli([...line.split(" "), ...options.extra ?? []], {
          env: { BASE_URL: server.base, ...options.env?.[i] },
        }),
      );
    }
    const flows = new Map<string, string>();
    for (const entry of Deno.readDirSync(`${dir}/flows`)) {
      if (!entry.name.endsWith(".yaml")) continue;
      flows.set(entry.name, Deno.readTextFileSync(`${dir}/flows/${entry.name}`));
    }
    return { summary: converted.stderr, runs, flows };
  } finally {
    await server.close();
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * A stand-in serving `handler` on 127.0.0.1 with a port the system picks.
 *
 * @example
 * ```ts
 * import { serveStandIn } from "./openapi_suite.ts";
 * const stand = serveStandIn(() => new Response("ok"));
 * if ((await (await fetch(stand.base)).text()) !== "ok") throw new Error();
 * await stand.close();
 * ```
 */
export function serveStandIn(handler: Deno.ServeHandler): StandIn {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, handler);
  const { port } = server.addr as Deno.NetAddr;
  return { base: `http://127.0.0.1:${port}`, close: () => server.shutdown() };
}
