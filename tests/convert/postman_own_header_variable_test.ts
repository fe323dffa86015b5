/**
 * A collection variable sent under a header whose name only looks secret is asked for by what its
 * value is, as the run masks it (written_headers.ts): `X-Request-Key: {{reqKey}}` with `reqKey =
 * order-note-7` is the collection's own text, sent with that value as Newman sends it; before,
 * `REQ_KEY` was asked for as a secret with no default, so the flow did not run as printed. A
 * random key under such a header, anything under a header whose words say it carries a credential
 * (`X-Auth-Token`), and a variable nothing gives stay asked for. The run shows the flow var's
 * value in its console and JSON report (own_vars.ts); it masked it as a var sent under a
 * secret-looking header until the flow's own vars counted as its text.
 */
import assert from "node:assert/strict";
import { convertPostman, formatPostmanSummary } from "../../lib/convert/postman/mod.ts";
import { runCli } from "../support/cli.ts";

const HEADERS = ["x-request-key", "x-idempotency-key", "x-signing-key", "x-auth-token"];

function collection(origin: string) {
  return {
    info: {
      name: "own header variables",
      schema: "https://schema.getpostman.com/json/collection/v2.1.0/collection.json",
    },
    variable: [
      { key: "reqKey", value: "order-note-7" },
      { key: "idem", value: "3f2b9c1e-7a4d-4e8b-9c0f-1a2b3c4d5e6f" },
      { key: "signing", value: "k_77a9d0c2e4f6b8a1c3d5" },
      { key: "typed", value: "letmein" },
    ],
    item: [{
      name: "make order",
      request: {
        method: "POST",
        url: `${origin}/orders`,
        header: [
          { key: "X-Request-Key", value: "{{reqKey}}" },
          { key: "X-Idempotency-Key", value: "{{idem}}" },
          { key: "X-Signing-Key", value: "{{signing}}" },
          { key: "X-Auth-Token", value: "{{typed}}" },
        ],
      },
    }],
  };
}

Deno.test("postman: a variable under a key-named header is the collection's own text; credentials stay asked", async () => {
  const seen: Record<string, string | null>[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push(Object.fromEntries(HEADERS.map((h) => [h, req.headers.get(h)])));
    return Response.json({ ok: true });
  });
  const dir = await Deno.makeTempDir();
  try {
    const origin = `http://127.0.0.1:${server.addr.port}`;
    const { files, summary } = convertPostman(JSON.stringify(collection(origin)));
    const text = formatPostmanSummary(summary, dir);
    const asked = text.match(/^Set before running: (.*)$/m)?.[1] ?? "";
    assert.doesNotMatch(asked, /REQ_KEY|IDEM/, text);
    assert.match(asked, /SIGNING \(\{\{signing\}\}, a secret\)/, text);
    assert.match(asked, /TYPED \(\{\{typed\}\}, a secret\)/, text);
    const flow = files.find((f) => f.path.endsWith(".yaml"))!;
    assert.doesNotMatch(flow.text, /k_77a9d0c2e4f6b8a1c3d5|letmein/, flow.text);
    for (const f of files) await Deno.writeTextFile(`${dir}/${f.path}`, f.text);
    const line = text.match(/^Run: flowrun (.*)$/m)![1].split(" ");
    // Run as printed, verbosely, with the JSON report: the collection's own values are shown
    // (the flow keeps them in its vars), the values asked for are masked.
    const run = await runCli([...line, "-vv", "--report-json", `${dir}/r.json`], {
      env: { SIGNING: "set-signing", TYPED: "set-typed" },
    });
    assert.equal(run.code, 0, run.stdout + run.stderr + flow.text);
    assert.deepEqual(seen, [{
      "x-request-key": "order-note-7",
      "x-idempotency-key": "3f2b9c1e-7a4d-4e8b-9c0f-1a2b3c4d5e6f",
      "x-signing-key": "set-signing",
      "x-auth-token": "set-typed",
    }]);
    const report = await Deno.readTextFile(`${dir}/r.json`);
    for (const output of [run.stdout, report]) {
      assert.match(output, /X-Request-Key"?: ?"?order-note-7/i, output);
      assert.match(output, /X-Idempotency-Key"?: ?"?3f2b9c1e-7a4d-4e8b-9c0f-1a2b3c4d5e6f/i, output);
      assert.doesNotMatch(output, /set-signing|set-typed/, output);
    }
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
