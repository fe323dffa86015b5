/**
 * The exported processor's WebSocket and SSE exchanges at their edges, run
 * in Node without Artillery (tests/fixtures/export/drive_processor.cjs calls
 * the scenario's `function:` items in order, as Artillery does) against the
 * server of tests/export/kinds_server.ts, beside `flowrun run` of the same
 * flow (tests/fixtures/export/kinds_edges.yaml), whose detailed checks pass
 * only where an exchange reads what flowrun reads: an event stream cut at
 * awkward places (a CRLF across two chunks, a BOM, a comment, data over two
 * lines, an id that persists, a retry, text that is not JSON), a WebSocket
 * the server closes with 4001 (an item whose `after` never came is not
 * sent), an answer that is not an event stream, a step whose `if:` does
 * not hold, and the auth a step adds (an API key in the query, percent-encoded
 * after the URL's own; basic; an API key cookie after the step's own). The `ws` client is the one Artillery's install holds (NODE_PATH),
 * as the processor finds it there under Artillery.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { runCli } from "../support/cli.ts";
import { prepare } from "../real/servers.ts";
import { startKindsServer } from "./kinds_server.ts";

const installed = await prepare([{ name: "artillery", version: "2.0.34" }]);
const FIXTURES = new URL("../fixtures/export/", import.meta.url).pathname;

Deno.test(
  `the processor's exchanges read the edges of a stream and a socket as flowrun run does${installed.ignoredBecause}`,
  { ignore: installed.ignoredBecause !== "" },
  async () => {
    const server = startKindsServer("unused");
    const dir = await Deno.makeTempDir({ prefix: "flowrun-processor-kinds-" });
    try {
      const env = { WS_URL: server.wsUrl, HTTP_URL: server.httpUrl, EDGE_KEY: "k/1 2" };
      const run = await runCli(["run", `${FIXTURES}kinds_edges.yaml`], { env });
      assert.equal(run.code, 0, run.stdout + run.stderr);
      const reference = server.seen.get("none")!;
      assert.deepEqual(reference, ["sse tricky", "ws open closing"]);
      server.seen.clear();
      const exported = await runCli(
        ["export", "artillery", `${FIXTURES}kinds_edges.yaml`, "-o", dir],
        { env },
      );
      assert.equal(exported.code, 0, exported.stderr);
      // deno-lint-ignore no-explicit-any
      const script: any = parse(await Deno.readTextFile(`${dir}/artillery.yml`));
      const names = script.scenarios[0].flow.map((item: { function?: string }) => item.function);
      const driven = await new Deno.Command("node", {
        args: [`${FIXTURES}drive_processor.cjs`, `${dir}/flowrun-processor.js`, ...names],
        clearEnv: true,
        env: {
          ...env,
          PATH: Deno.env.get("PATH") ?? "",
          NODE_PATH: `${installed.install!.prefix}/node_modules`,
        },
      }).output();
      const stdout = new TextDecoder().decode(driven.stdout);
      assert.equal(driven.code, 0, new TextDecoder().decode(driven.stderr));
      const got = JSON.parse(stdout);
      assert.equal(got.error, undefined, stdout);
      assert.deepEqual(server.seen.get("none"), reference, "the skipped step connected to nothing");
      assert.equal(got.counters["flowrun.checks.failed"] ?? 0, 0, stdout);
      // tricky: status and six paths; closing: status and three; denied: status and one; the
      // auth an API key in the query, basic and an API key in a cookie add: four paths.
      assert.equal(got.counters["flowrun.checks.ok"], 7 + 4 + 2 + 4, stdout);
      assert.equal(got.counters["flowrun.sse.tricky.received"], 4);
      assert.equal(got.counters["flowrun.websocket.closing.received"], 2);
      assert.equal(got.counters["flowrun.websocket.closing.sent"], 0, "after: 5 never came");
      assert.equal(got.counters["flowrun.sse.denied.received"], 0);
      assert.equal(got.histograms["flowrun.websocket.skipped"], undefined);
      assert.equal(got.vars.f0_tricky__last_id, "9");
    } finally {
      await Deno.remove(dir, { recursive: true });
      await server.close();
    }
  },
);
