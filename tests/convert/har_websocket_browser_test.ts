/**
 * `convert har` on a real browser's recording of a WebSocket (issue 55):
 * headless Chromium opens a page of a chat app this test starts
 * (`tests/fixtures/har_websocket/chat_server.ts`) whose script logs in,
 * talks over a WebSocket (text, JSON with the login's token, binary) and
 * fetches the ticket a received message handed out. Both recordings are
 * made at once (`tests/support/record_har.ts`): Playwright's `recordHar`
 * holds the frames as `_webSocketMessages`; chrome-har (1.3.1) ignores the
 * CDP `Network.webSocket*` events, so its recording has the handshake only
 * and the socket stays dropped. Playwright's recording is converted with the
 * CLI and the flow run against a fresh instance of the app: new token, new
 * session cookie, new ticket, so the flow passes only if it captured them.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { ignoreBrowser, whyBrowserIgnored } from "../support/browser.ts";
import { recordSession } from "../support/record_har.ts";
import { runCli } from "../support/cli.ts";
import { CHAT_PASSWORD, startChat } from "../fixtures/har_websocket/chat_server.ts";

interface WsEntry {
  request: { url: string };
  response: { status: number };
  _webSocketMessages?: { type: string; opcode: number; data: string }[];
}

/** Records the chat journey; both HARs. */
async function record() {
  const app = startChat();
  try {
    return await recordSession(async (page) => {
      await page.goto(`${app.origin}/`);
      await page.waitForFunction(
        'document.getElementById("state")?.textContent !== "starting"',
        undefined,
        { timeout: 20_000 },
      );
      assert.equal(await page.textContent("#state"), "done");
    });
  } finally {
    await app.close();
  }
}

const socketOf = (har: string): WsEntry | undefined =>
  (JSON.parse(har).log.entries as WsEntry[]).find((e) => e.request.url.startsWith("ws://"));

Deno.test({
  name:
    `a Chromium recording of a WebSocket converts to a websocket step that passes against a fresh server${whyBrowserIgnored}`,
  ignore: ignoreBrowser,
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const { playwright, chromeHar } = await record();
    const socket = socketOf(playwright);
    assert.ok(socket, "Playwright recorded no WebSocket entry");
    assert.equal(socket.response.status, 101);
    const frames = (socket._webSocketMessages ?? []).map((m) => `${m.type} ${m.opcode} ${m.data}`);
    assert.deepEqual(frames.filter((f) => !f.includes("subscribe")), [
      "send 1 hello",
      "receive 1 hello",
      "send 2 AAECAw==",
      "receive 2 AAECAw==",
    ]);
    assert.equal(frames.filter((f) => f.includes("subscribe")).length, 2, frames.join("\n"));
    // chrome-har keeps the handshake, never the frames.
    assert.equal(socketOf(chromeHar)?._webSocketMessages, undefined);

    const dir = await Deno.makeTempDir({ prefix: "flowrun-har-ws-browser-" });
    const app = startChat();
    try {
      await Deno.writeTextFile(`${dir}/chat.har`, playwright);
      const converted = await runCli([
        "convert",
        "har",
        `${dir}/chat.har`,
        "-o",
        `${dir}/flow.yaml`,
      ]);
      assert.equal(converted.code, 0, converted.stderr);
      const yaml = await Deno.readTextFile(`${dir}/flow.yaml`);
      assert.ok(!yaml.includes(CHAT_PASSWORD), yaml);
      const steps = parse(yaml).steps as Record<string, Record<string, unknown>>[];
      const chat = steps.find((s) => s.websocket);
      assert.ok(chat, yaml);
      assert.deepEqual(chat.websocket, {
        url: "${vars.base_url}/chat",
        headers: { cookie: "sid=${steps.login.capture.sid}" },
        subprotocols: ["chat.v1"],
        // The page waits for each reply, and the server refuses what comes before the first.
        send: [
          { text: "hello" },
          {
            json: { type: "subscribe", room: "lobby", token: "${steps.login.capture.token}" },
            after: 1,
          },
          // Sent once the message it answered came (issue 52/55), not once 2 messages came.
          { binary: "AAECAw==", after: { message: "$[?@.type == 'subscribed']" } },
        ],
        // The next request reads the subscribed message's ticket: the step waits for it.
        until: "$[?@.type == 'subscribed'].ticket",
        wait: "10s",
      });
      const run = await runCli(
        ["run", `${dir}/flow.yaml`, "--report-json", `${dir}/report.json`],
        { env: { BASE_URL: app.origin, LOGIN_PASSWORD: CHAT_PASSWORD } },
      );
      assert.equal(run.code, 0, `${run.stdout}${run.stderr}\n${yaml}`);
      assert.equal(app.refused, 0);
      const report = JSON.parse(await Deno.readTextFile(`${dir}/report.json`));
      const results = report.flows[0].steps as { name: string; status: string }[];
      assert.deepEqual(
        results.map((s) => `${s.name} ${s.status}`),
        steps.map((s) => `${s.name} passed`),
      );
    } finally {
      await app.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
