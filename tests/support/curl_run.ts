/**
 * Documentation text converted by `flowrun convert curl` as a user converts it (a file in a
 * folder of its own, default options, a subprocess) and the flow it writes run there: the
 * set-up the curl tests that check what a server received share.
 *
 * @module
 */
import assert from "node:assert/strict";
import { type CliRun, runCli } from "./cli.ts";

/** What {@linkcode withCurlFlow} gives its callback while the folder is there. */
export interface CurlFlow {
  /** The temporary folder: the documentation, the flow and what the conversion put beside it. */
  dir: string;
  /** The conversion, which succeeded; its summary is `stderr`. */
  converted: CliRun;
  /** Runs the flow from the folder with `env` set and `args` after the flow's path. */
  runFlow(env?: Record<string, string>, ...args: string[]): Promise<CliRun>;
  /** The flow's text as the conversion wrote it. */
  readFlow(): Promise<string>;
}

/** Where {@linkcode withCurlFlow} writes. */
export interface CurlFlowFiles {
  /** The documentation's file name in the folder; `docs.sh` unless a test says otherwise. */
  docs?: string;
  /** The flow's path from the folder (`-o`); `flow.yaml` unless a test says otherwise. */
  flow?: string;
}

/**
 * Writes `docs` into a new temporary folder, converts it there with
 * `flowrun convert curl DOCS -o FLOW`, asserts the conversion succeeded, gives `use` the
 * conversion and the means to run the flow, and removes the folder after `use`, whatever it
 * did. Servers stay the caller's: a test starts one before (the text often names its port).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { withCurlFlow } from "./curl_run.ts";
 * const seen: string[] = [];
 * await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
 *   seen.push(new URL(req.url).pathname);
 *   return new Response("pong");
 * });
 * const docs = `$ curl http://127.0.0.1:${server.addr.port}/ping\n`;
 * const code = await withCurlFlow(docs, async ({ runFlow }) => (await runFlow()).code);
 * assert.equal(code, 0);
 * assert.deepEqual(seen, ["/ping"]);
 * ```
 */
export async function withCurlFlow<T>(
  docs: string,
  use: (flow: CurlFlow) => Promise<T>,
  files: CurlFlowFiles = {},
): Promise<T> {
  const { docs: name = "docs.sh", flow = "flow.yaml" } = files;
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/${name}`, docs);
    const converted = await runCli(["convert", "curl", name, "-o", flow], { cwd: dir });
    assert.equal(converted.code, 0, converted.stderr);
    return await use({
      dir,
      converted,
      runFlow: (env = {}, ...args) => runCli(["run", flow, ...args], { cwd: dir, env }),
      readFlow: () => Deno.readTextFile(`${dir}/${flow}`),
    });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
