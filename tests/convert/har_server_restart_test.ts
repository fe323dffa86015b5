/**
 * `convert har` on a write after which the server restarts. A print server's web admin (CUPS 2.4,
 * docs/real-servers-har.md) answers "Change Settings" with a page "Please stand by while the
 * server restarts" and `Connection: close`, where every other answer keeps the connection alive;
 * the server is gone for a moment. The browser's next page came some hundreds of milliseconds
 * later and found it back; the flow sent the next step at once, was refused the connection, and
 * the steps after it were skipped (36 of 44 on a fresh instance). The evidence is the answer: a
 * server whose answers keep their connection and which closes it after a write has gone away
 * for a moment, so the step after it is sent again on a network error (a bounded number of
 * times). A server that closes every connection (PHP's built-in server) says nothing by it.
 * The stand-in stops listening for 400 ms after the settings write, then listens again on the
 * same port.
 */
import assert from "node:assert/strict";
import { runCli } from "../support/cli.ts";
import { convertHar } from "./har_convert.ts";

const AT = "http://127.0.0.1:8877";

/** A HAR entry answered with `connection` (`keep-alive` or `close`). */
function entry(i: number, method: string, path: string, connection: string, body?: string) {
  return {
    startedDateTime: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    request: {
      method,
      url: `${AT}${path}`,
      headers: [],
      ...(body === undefined
        ? {}
        : { postData: { mimeType: "application/x-www-form-urlencoded", text: body } }),
    },
    response: {
      status: 200,
      headers: [{ name: "Connection", value: connection }],
      content: { mimeType: "text/html", text: `<html><body>${path}</body></html>` },
    },
  };
}

/** The journey: the settings page, the write that restarts the server, the settings page again. */
function journey(restartClose: string, otherwise: string): string {
  const entries = [
    entry(0, "GET", "/admin", otherwise),
    entry(1, "POST", "/admin", restartClose, "OP=config-server&USER_CANCEL_ANY=on"),
    entry(2, "GET", "/admin", otherwise),
  ];
  return JSON.stringify({ log: { entries } });
}

/** A server on one port that stops listening for `downMs` after each settings write. */
function restartingServer(downMs: number) {
  const writes: string[] = [];
  let port = 0;
  let server: Deno.HttpServer<Deno.NetAddr>;
  const handler = async (req: Request): Promise<Response> => {
    if (req.method !== "POST") {
      return new Response("<p>settings</p>", { headers: { "content-type": "text/html" } });
    }
    writes.push(await req.text());
    // Stop taking connections at once (this answer still goes out), come back on the same port.
    server.shutdown().then(() => new Promise((r) => setTimeout(r, downMs))).then(() => {
      server = listen();
    });
    return new Response("<p>Please stand by while the server restarts...</p>", {
      headers: { "content-type": "text/html", connection: "close" },
    });
  };
  const listen = () => Deno.serve({ hostname: "127.0.0.1", port, onListen() {} }, handler);
  server = listen();
  port = server.addr.port;
  return { origin: `http://127.0.0.1:${port}`, writes, close: () => server.shutdown() };
}

Deno.test("convert har: the step after a write the server closed its connection on, unlike its other answers, is sent again on a network error", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-restart-" });
  const server = restartingServer(400);
  try {
    const { flow } = await convertHar(dir, journey("close", "Keep-Alive"));
    const out = await runCli(["run", `${dir}/flow.yaml`], { env: { BASE_URL: server.origin } });
    assert.equal(out.code, 0, `${out.stdout}\n${flow}`);
    assert.equal(server.writes.length, 1);
  } finally {
    await new Promise((r) => setTimeout(r, 500));
    await server.close().catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: a server that closes every connection, or answers the recorder kept without the header, say nothing by closing one", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-restart-" });
  try {
    const { flow } = await convertHar(dir, journey("close", "close"));
    assert.doesNotMatch(flow, /retry/, flow);
    // Nor does one whose other answers the recorder kept without the header (chrome-har may).
    const { flow: unsaid } = await convertHar(dir, journey("close, close", ""));
    assert.doesNotMatch(unsaid, /retry/, unsaid);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
