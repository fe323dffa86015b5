/**
 * `${NOW…}`, `${RANDOM.DIGITS_n}` and `${RANDOM.BOOL}` exported with
 * `flowrun export artillery` and run by Artillery itself (the installed
 * 2.0.34, as the export tests run it) against a server on 127.0.0.1: each
 * virtual user sends the time of its request and values of their type, as
 * `flowrun run` does. Times are compared with the clock read around the run.
 */
import assert from "node:assert/strict";
import { artilleryRun } from "../export/artillery_cli.ts";
import { runCli } from "../support/cli.ts";
import { prepare } from "../real/servers.ts";

const installed = await prepare([{ name: "artillery", version: "2.0.34" }]);
const HOUR = 3_600_000;

Deno.test(
  `Artillery sends the exported \${NOW…}, \${RANDOM.DIGITS_n} and \${RANDOM.BOOL} fresh, of their type${installed.ignoredBecause}`,
  { ignore: installed.ignoredBecause !== "" },
  async () => {
    const seen: { query: URLSearchParams; body: Record<string, unknown> }[] = [];
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
      seen.push({ query: new URL(req.url).searchParams, body: await req.json() });
      return Response.json({});
    });
    const dir = await Deno.makeTempDir({ prefix: "flowrun-now-artillery-" });
    try {
      await Deno.writeTextFile(
        `${dir}/now.yaml`,
        `name: now
steps:
  - name: session
    request:
      method: POST
      url: "http://127.0.0.1:${server.addr.port}/session?validUntil=\${NOW.UNIX+1h}"
      body: {at: "\${NOW.UNIX_MS}", iso: "\${NOW.ISO-30m}", qty: "\${RANDOM.DIGITS_3}", gift: "\${RANDOM.BOOL}"}
`,
      );
      const exported = await runCli([
        "export",
        "artillery",
        `${dir}/now.yaml`,
        "-o",
        `${dir}/out`,
        "--users",
        "2",
        "--duration",
        "1s",
      ]);
      assert.equal(exported.code, 0, exported.stdout + exported.stderr);
      assert.ok(!exported.stderr.includes("no counterpart"), exported.stderr);
      const before = Date.now();
      const run = await artilleryRun(installed.install!.prefix, `${dir}/out`, {});
      const after = Date.now();
      assert.equal(run.code, 0, run.output);
      assert.equal(seen.length, 2, run.output);
      for (const { query, body } of seen) {
        const until = Number(query.get("validUntil"));
        assert.ok(
          until >= Math.floor((before + HOUR) / 1000) && until <= Math.ceil((after + HOUR) / 1000),
          String(until),
        );
        assert.ok(
          typeof body.at === "number" && body.at >= before && body.at <= after,
          String(body.at),
        );
        const iso = Date.parse(body.iso as string);
        assert.ok(iso >= before - HOUR / 2 && iso <= after - HOUR / 2, String(body.iso));
        assert.ok(
          Number.isInteger(body.qty) && (body.qty as number) >= 100 && (body.qty as number) <= 999,
        );
        assert.equal(typeof body.gift, "boolean");
      }
    } finally {
      await server.shutdown();
      await Deno.remove(dir, { recursive: true });
    }
  },
);
