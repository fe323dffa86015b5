/**
 * The edges of writing a step kind's call as it went on the wire
 * (lib/report/har_kinds.ts, har_websocket.ts), one entry at a time: the
 * detail budget over frames and events, a report body cut before it
 * reached the HAR, a refused upgrade, a message whose turn never came,
 * multi-line event data, a gRPC call that reached no server, and an HTTP
 * step that read an event stream itself (left as it came).
 */
import assert from "node:assert/strict";
import { harEntry } from "../../lib/report/har_entry.ts";
import { BodyBudget } from "../../lib/report/har_budget.ts";
import type { Exchange } from "../../lib/model/events.ts";
import { harProblems } from "./har_report_shape.ts";

type Json = Record<string, unknown>;

const base = { step: "s", attempt: 1, started_at: "2026-01-01T00:00:00.000Z", duration_ms: 40 };

function ws(sent: unknown[], messages: unknown[] | string, status = 101): Exchange {
  const body = typeof messages === "string"
    ? messages
    : JSON.stringify({ messages, close: null, stopped: "count" });
  return {
    ...base,
    request: {
      method: "WEBSOCKET",
      url: "ws://a.test/live",
      headers: [],
      body: JSON.stringify(sent),
      size: 0,
    },
    response: { status, headers: {}, set_cookies: [], body, size: body.length },
  };
}

/** The entry, checked to be HAR 1.2 inside a log of its own. */
function entryOf(exchange: Exchange, budget = new BodyBudget()): Json {
  const entry = harEntry(exchange, "page_1", budget);
  const log = {
    version: "1.2",
    creator: { name: "t", version: "1" },
    pages: [{ startedDateTime: base.started_at, id: "page_1", title: "t", pageTimings: {} }],
    entries: [entry],
  };
  assert.deepEqual(harProblems({ log }), []);
  return entry;
}

const frames = (e: Json) =>
  e._webSocketMessages as { type: string; opcode: number; data: string }[];

Deno.test("WebSocket frames: each within the detail budget, a cut one said on the entry", () => {
  const big = "x".repeat(5000);
  const budget = new BodyBudget(0);
  const entry = entryOf(ws([{ text: big }], [big, "short"]), budget);
  assert.deepEqual(frames(entry).map((f) => f.data.length), [2048, 2048, 5]);
  assert.match(entry.comment as string, /cut by the report's detail budget/);
  const whole = entryOf(ws([{ text: "hi" }], ["hi"]));
  assert.equal(whole.comment, undefined);
});

Deno.test("WebSocket: messages the report cut before the HAR are not guessed at; the upgrade stays", () => {
  const entry = entryOf(ws([{ text: "hi" }], '{"messages":["aaa'));
  assert.deepEqual(frames(entry), []);
  assert.match(entry.comment as string, /longer than the report keeps/);
  assert.equal((entry.response as Json).status, 101);
});

Deno.test("WebSocket: a message whose turn never came was not sent; a binary reply is opcode 2", () => {
  const entry = entryOf(ws([{ text: "a" }, { text: "b", after: 3 }], [{ binary: "AQI=" }]));
  assert.deepEqual(frames(entry).map((f) => `${f.type} ${f.opcode} ${f.data}`), [
    "send 1 a",
    "receive 2 AQI=",
  ]);
});

Deno.test("WebSocket: a refused upgrade is its answer, with no frames", () => {
  const refused = ws([{ text: "hi" }], '{"error":"unauthorized"}', 401);
  const entry = entryOf(refused);
  const response = entry.response as {
    status: number;
    statusText: string;
    content: { text: string };
  };
  assert.equal(response.status, 401);
  assert.equal(response.statusText, "");
  assert.equal(response.content.text, '{"error":"unauthorized"}');
  assert.deepEqual(frames(entry), []);
  assert.equal((entry.request as Json).method, "GET");
});

function sse(body: string, type = "text/event-stream"): Exchange {
  return {
    ...base,
    request: { method: "GET", url: "http://a.test/events", headers: [], size: 0 },
    response: {
      status: 200,
      headers: { "content-type": type },
      set_cookies: [],
      body,
      size: body.length,
    },
  };
}

Deno.test("SSE: multi-line and empty data, a retry, ids; cut by the budget like a body", () => {
  const events = [
    { event: "message", data: "line 1\nline 2", id: "" },
    { event: "ping", data: "", id: "9", retry: 500 },
  ];
  const entry = entryOf(sse(JSON.stringify({ events, stopped: "end" })));
  const content = (entry.response as { content: { text: string; size: number } }).content;
  assert.equal(
    content.text,
    "data: line 1\ndata: line 2\n\nid: 9\nevent: ping\nretry: 500\ndata: \n\n",
  );
  assert.equal(content.size, content.text.length);
  const many = Array.from({ length: 300 }, (_, n) => ({ event: "message", data: { n }, id: "" }));
  const cut = entryOf(sse(JSON.stringify({ events: many, stopped: "count" })), new BodyBudget(0));
  const kept = (cut.response as { content: { text: string; comment: string } }).content;
  assert.equal(kept.text.length, 2048);
  assert.match(kept.comment, /cut at 2048 characters/);
});

Deno.test("SSE: the stream's time went on receiving, so convert har keeps it before a later write", () => {
  const events = [{ event: "message", data: "hi", id: "" }];
  const entry = entryOf(sse(JSON.stringify({ events, stopped: "count" })));
  const timings = entry.timings as { wait: number; receive: number };
  // Its answer began at once: a write sent after the step is no answer it waited for.
  assert.deepEqual([timings.wait, timings.receive], [0, entry.time]);
  const plain = entryOf(sse("{}", "application/json")).timings as { wait: number; receive: number };
  assert.equal(plain.receive, 0);
});

Deno.test("SSE: an HTTP step that read an event stream itself keeps the text it read", () => {
  const text = 'data: {"events": []}\n\n';
  const entry = entryOf(sse(text));
  assert.equal((entry.response as { content: { text: string } }).content.text, text);
  assert.equal(entry._resourceType, undefined);
});

Deno.test("gRPC: a call that reached no server is the POST with no answer, its reason in _error", () => {
  const entry = entryOf({
    ...base,
    request: {
      method: "GRPC",
      url: "grpcs://api.test:443/p.S/M",
      headers: [["x-id", "7"]],
      body: "[{},{}]",
      size: 7,
    },
    error: "p.S/M is unavailable (UNAVAILABLE): No connection established.",
  });
  const request = entry.request as {
    method: string;
    url: string;
    httpVersion: string;
    postData: Json;
  };
  assert.equal(request.method, "POST");
  assert.equal(request.url, "https://api.test:443/p.S/M");
  assert.equal(request.httpVersion, "HTTP/2.0");
  assert.equal(request.postData.text, "[{},{}]");
  assert.equal((entry.response as Json).status, 0);
  assert.match(entry._error as string, /UNAVAILABLE/);
});
