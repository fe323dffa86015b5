/**
 * What the tests of `convert har` on a kernel-like WebSocket conversation
 * share: the recording of a socket exchanging the messages a test gives,
 * with or without a later request that sends the language the socket's
 * reply named, and that recording converted and read back.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { runCli } from "../support/cli.ts";

const at = (ms: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, 0, ms)).toISOString();

/** The save a page makes after the socket's reply: it sends the reply's `lexer` and gets it back. */
const SAVE = {
  startedDateTime: at(500),
  time: 1,
  request: {
    method: "POST",
    url: "http://127.0.0.1:8888/save",
    headers: [],
    cookies: [],
    postData: { mimeType: "application/json", text: '{"lexer":"ipython3"}' },
  },
  response: {
    status: 200,
    headers: [],
    cookies: [],
    content: { mimeType: "application/json", text: '{"saved":"ipython3"}' },
  },
  _resourceType: "xhr",
};

/**
 * The HAR text of a socket at `url` (opened at 0 ms) exchanging `messages`
 * (HAR `_webSocketMessages`), then, if `withSave`, the save at 500 ms.
 */
export function socketHar(url: string, messages: unknown[], withSave: boolean): string {
  const socket = {
    startedDateTime: at(0),
    time: 1,
    request: { method: "GET", url },
    response: { status: 101, headers: [], cookies: [], content: {} },
    _resourceType: "websocket",
    _webSocketMessages: messages,
  };
  return JSON.stringify({ log: { entries: withSave ? [socket, SAVE] : [socket] } });
}

/** Converts `har` (written into `dir`); the flow's text and its socket step's `websocket` map. */
export async function convertSocket(
  dir: string,
  har: string,
): Promise<{ text: string; ws: Record<string, unknown> }> {
  await Deno.writeTextFile(`${dir}/in.har`, har);
  const converted = await runCli(["convert", "har", `${dir}/in.har`, "-o", `${dir}/f.yaml`]);
  assert.equal(converted.code, 0, converted.stderr);
  const text = await Deno.readTextFile(`${dir}/f.yaml`);
  const flow = parse(text) as { steps: { websocket?: Record<string, unknown> }[] };
  return { text, ws: flow.steps.find((s) => s.websocket)!.websocket! };
}
