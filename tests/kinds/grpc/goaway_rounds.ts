/**
 * `deno run -A goaway_rounds.ts ROUNDS`: rounds of a flow's gRPC steps run
 * by the library in this process, each against an atlas server that then
 * shuts down (a GOAWAY to any session still open here); prints `rounds N`
 * at the end. Deno 2.9.6 aborts the process when that GOAWAY reaches an idle
 * session (denoland/deno#36788), so a run that left one open ends this
 * process with SIGABRT or SIGSEGV: tests/kinds/grpc/channel_closed_test.ts.
 *
 * @module
 */
import { runFlows } from "../../../lib/api.ts";
import { flowDir } from "./support.ts";
import { servedAtlas } from "./served.ts";

const FLOW = `name: rounds
vars: { port: "0" }
steps:
  - name: place
    grpc:
      target: "127.0.0.1:\${vars.port}"
      proto: protos/atlas.proto
      method: atlas.Atlas/GetPlace
      message: { latitude: 1, longitude: 1 }
    assert: { status: 0 }
  - name: again
    grpc:
      target: "127.0.0.1:\${vars.port}"
      proto: protos/atlas.proto
      method: atlas.Atlas/GetPlace
      message: { latitude: 1, longitude: 1 }
    assert: { status: 0 }
`;

/** One round: the flow run against a new server, which then shuts down. */
async function round(dir: string): Promise<void> {
  const server = await servedAtlas();
  try {
    const result = await runFlows([`${dir}/flow.yaml`], { vars: { port: String(server.port) } });
    if (result.status !== "passed" || server.calls.length !== 2) {
      throw new Error(`the flow did not pass: ${JSON.stringify(result.flows)}`);
    }
    await server.shutdown();
    // Turns of the event loop with nothing to do but read what the server sent.
    await new Promise((resolve) => setTimeout(resolve, 50));
  } finally {
    await server.close();
  }
}

if (import.meta.main) {
  const dir = await flowDir(FLOW);
  let done = 0;
  try {
    for (; done < Number(Deno.args[0] ?? 5); done++) {
      console.error(`round ${done + 1}`);
      await round(dir);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  console.log(`rounds ${done}`);
}
