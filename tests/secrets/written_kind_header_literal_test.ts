/**
 * The provenance rule of `written_header_literal_test.ts` for the other step kinds: text an
 * `sse:` step writes under a header, a `websocket:` step under a handshake header and a `grpc:`
 * step under metadata whose name merely looks secret (`Idempotency-Key: <string>`,
 * `X-Request-Key: …`) is the flow's own, and every report shows it; what an environment variable
 * brings to such a header, and a password typed under a credential header (`X-Session-Token`,
 * `Authorization`), stay masked in every output and encoding. The flow runs as a CLI subprocess
 * against a server this test starts (an event stream and a WebSocket echoing what the connection
 * sent), and every report is read back.
 */
import assert from "node:assert/strict";
import { runEveryReport } from "../support/run_reports.ts";

/** Written in the flow under secret-looking header names: the flow's own text. */
const WRITTEN = ["<string>", "plain-request-key"];
/** From a secret source: an environment variable. */
const SECRETS = { UPSTREAM_VALUE: "upstream-Vq71Zk" };
/** Typed in the flow under credential headers: typed credentials. */
const TYPED = ["typed-pw-Rk3", "typed-bearer-Jw8"];

/** The headers both steps send, indented for the flow's text. */
function headers(indent: string): string {
  return [
    `Idempotency-Key: "<string>"`,
    `X-Request-Key: plain-request-key`,
    `X-Auth-Token: "\${ENV.UPSTREAM_VALUE}"`,
    `X-Session-Token: ${TYPED[0]}`,
    `Authorization: "Bearer ${TYPED[1]}"`,
  ].map((line) => `${indent}${line}`).join("\n");
}

const FLOW = `name: written kind header literals
steps:
  - name: stream
    sse:
      url: "\${ENV.BASE}/events"
      count: 1
      headers:
${headers("        ")}
    assert:
      status: 200
      json:
        - path: $.json.events[0].data
          equals: "not <string> plain-request-key"
  - name: socket
    always: true
    websocket:
      url: "\${ENV.WS}/socket"
      count: 1
      headers:
${headers("        ")}
    assert:
      json:
        - path: $.json.messages[0]
          equals: "not <string> plain-request-key"
`;

/** An event stream and a WebSocket that each answer with the two written headers' values. */
function serve() {
  const srv = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const echo = `${req.headers.get("idempotency-key")} ${req.headers.get("x-request-key")}`;
    if (new URL(req.url).pathname === "/socket") {
      const { socket, response } = Deno.upgradeWebSocket(req);
      socket.onopen = () => socket.send(echo);
      return response;
    }
    return new Response(`data: ${echo}\n\n`, {
      headers: {
        "content-type": "text/event-stream",
        // Echoed as Stripe echoes it: the flow's own text, not a key the server issued.
        "idempotency-key": req.headers.get("idempotency-key") ?? "",
      },
    });
  });
  const port = srv.addr.port;
  return {
    env: { BASE: `http://127.0.0.1:${port}`, WS: `ws://127.0.0.1:${port}` },
    close: () => srv.shutdown(),
  };
}

/** `text` as each report writes it: raw, JSON-escaped, XML/HTML-escaped. */
function encodings(text: string): string[] {
  const xml = text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
  return [text, JSON.stringify(text).slice(1, -1), xml, xml.replaceAll("&", "&amp;")];
}

Deno.test("an sse or websocket step's literal under a secret-looking header is shown; a secret's is masked", async () => {
  const srv = serve();
  const dir = await Deno.makeTempDir({ prefix: "flowrun-written-kind-header-" });
  try {
    await Deno.writeTextFile(`${dir}/f.yaml`, FLOW);
    const run = await runEveryReport(dir, { ...srv.env, ...SECRETS });
    // The checks fail on purpose: their messages quote the echoed literals in every report.
    assert.equal(run.code, 1, run.stdout + run.stderr);
    const names = ["stdout", "stderr", "json", "junit", "html", "log"];
    for (const [i, output] of run.outputs.entries()) {
      for (const secret of [...Object.values(SECRETS), ...TYPED]) {
        for (const form of encodings(secret)) {
          assert.ok(!output.includes(form), `${names[i]} shows ${form}:\n${output}`);
        }
      }
    }
    // Each step's request as the JSON report keeps it: the literals as written, the rest masked.
    for (const step of run.report.flows[0].steps) {
      const sent = JSON.stringify(step);
      assert.match(sent, /"Idempotency-Key":"<string>"/i, sent);
      assert.match(sent, /"X-Request-Key":"plain-request-key"/i, sent);
      assert.match(sent, /"X-Auth-Token":"\*\*\*"/i, sent);
      assert.match(sent, /"X-Session-Token":"\*\*\*"/i, sent);
      assert.match(sent, /"Authorization":"(?:Bearer )?\*\*\*"/i, sent);
      assert.match(sent, /<string> plain-request-key/, sent);
    }
    // Every output that quotes the failed checks shows the literals, in its own encoding.
    for (const [i, output] of run.outputs.entries()) {
      if (names[i] === "stderr") continue;
      for (const literal of WRITTEN) {
        assert.ok(
          encodings(literal).some((form) => output.includes(form)),
          `${names[i]} does not show ${literal}:\n${output}`,
        );
      }
    }
  } finally {
    await srv.close();
    await Deno.remove(dir, { recursive: true });
  }
});
