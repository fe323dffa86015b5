/**
 * The event-stream parser, one test per rule of the WHATWG HTML standard's
 * "Interpreting an event stream", each fed whole and split at every
 * character (a rule that only holds for whole chunks fails there).
 */
import assert from "node:assert/strict";
import { EventStreamParser, type StreamEvent } from "../../../lib/kinds/sse/event_stream.ts";

/** The events of `text`, fed whole and then one split at each offset: all must agree. */
function parse(text: string): StreamEvent[] {
  const whole = new EventStreamParser().push(text);
  for (let cut = 1; cut < text.length; cut++) {
    const parser = new EventStreamParser();
    const split = [...parser.push(text.slice(0, cut)), ...parser.push(text.slice(cut))];
    assert.deepEqual(split, whole, `split at ${cut} of ${JSON.stringify(text)}`);
  }
  return whole;
}

Deno.test("a data line and an empty line make a message event", () => {
  assert.deepEqual(parse("data: hello\n\n"), [{ event: "message", data: "hello", id: "" }]);
});

Deno.test("lines end at LF, CRLF or CR, mixed in one stream", () => {
  const got = parse("data: a\r\n\r\ndata: b\r\rdata: c\n\n");
  assert.deepEqual(got.map((e) => e.data), ["a", "b", "c"]);
});

Deno.test("a CR at a chunk's end and its LF at the next one's start are one line end", () => {
  const parser = new EventStreamParser();
  const got = [...parser.push("data: a\r"), ...parser.push("\n"), ...parser.push("\r\n")];
  assert.deepEqual(got.map((e) => e.data), ["a"]);
  // …but an LF after a CR that ended the line before it is an empty line of its own.
  const other = new EventStreamParser();
  const both = [...other.push("data: x\r"), ...other.push("\r"), ...other.push("\n")];
  assert.deepEqual(both.map((e) => e.data), ["x"]);
});

Deno.test("several data lines are joined with LF; no LF at the end", () => {
  assert.deepEqual(parse("data: one\ndata:two\ndata\n\n")[0].data, "one\ntwo\n");
});

Deno.test("one space after the colon is removed, no more", () => {
  assert.deepEqual(parse("data:  two spaces\n\n")[0].data, " two spaces");
  assert.deepEqual(parse("data:none\n\n")[0].data, "none");
});

Deno.test("a line starting with a colon is a comment", () => {
  assert.deepEqual(parse(": keep-alive\n:\ndata: x\n: more\n\n"), [
    { event: "message", data: "x", id: "" },
  ]);
});

Deno.test("an event field names the type; an empty one is message", () => {
  const got = parse("event: progress\ndata: 1\n\nevent:\ndata: 2\n\ndata: 3\n\n");
  assert.deepEqual(got.map((e) => e.event), ["progress", "message", "message"]);
});

Deno.test("the event type does not carry over to the next event", () => {
  assert.deepEqual(parse("event: a\ndata: 1\n\ndata: 2\n\n").map((e) => e.event), [
    "a",
    "message",
  ]);
});

Deno.test("an id persists across events until another id sets it, an empty id clears it", () => {
  const parser = new EventStreamParser();
  const got = parser.push("id: 1\ndata: a\n\ndata: b\n\nid\ndata: c\n\n");
  assert.deepEqual(got.map((e) => e.id), ["1", "1", ""]);
  assert.equal(parser.lastEventId, "");
  assert.deepEqual(parse("id: 5\n\ndata: x\n\n")[0].id, "5", "an id in a block without data");
});

Deno.test("an id holding NUL is ignored", () => {
  assert.deepEqual(parse("id: 1\ndata: a\n\nid: 2\0x\ndata: b\n\n").map((e) => e.id), ["1", "1"]);
});

Deno.test("retry takes ASCII digits only, and sets the reconnection time", () => {
  const parser = new EventStreamParser();
  const got = parser.push("retry: 3000\ndata: a\n\nretry: 12x\ndata: b\n\nretry: 50\n\n");
  assert.equal(got[0].retry, 3000);
  assert.equal(got[1].retry, undefined);
  assert.equal(parser.reconnectMs, 50, "a retry in a block without data still counts");
});

Deno.test("a block without data dispatches nothing and resets the type", () => {
  assert.deepEqual(parse("event: x\n\ndata: y\n\n"), [{ event: "message", data: "y", id: "" }]);
});

Deno.test("unknown fields and a field without a colon are ignored", () => {
  assert.deepEqual(parse("foo: bar\nevent\ndata: 1\n\n"), [{
    event: "message",
    data: "1",
    id: "",
  }]);
});

Deno.test("an event without its empty line at the end is not dispatched", () => {
  assert.deepEqual(parse("data: a\n\ndata: b\n"), [{ event: "message", data: "a", id: "" }]);
  const parser = new EventStreamParser();
  parser.push("data: half\n");
  parser.reset();
  assert.deepEqual(parser.push("data: whole\n\n").map((e) => e.data), ["whole"]);
});

Deno.test("a field name is case-sensitive", () => {
  assert.deepEqual(parse("Data: x\n\n"), []);
});

Deno.test("the last event ID for a reconnection is set at dispatch, not by an id of an event cut off", () => {
  const parser = new EventStreamParser();
  parser.push("id: 1\ndata: a\n\nid: 2\ndata: b");
  assert.equal(parser.lastEventId, "1", "event 2 never completed");
  parser.push("\n\n");
  assert.equal(parser.lastEventId, "2");
  // A block with an id and no data dispatches nothing, but sets the ID (step 1 of dispatch).
  parser.push("id: 3\n\n");
  assert.equal(parser.lastEventId, "3");
});

Deno.test("a new stream (a reconnection) starts from the last event ID, as browsers do", () => {
  const parser = new EventStreamParser();
  parser.push("id: 7\ndata: a\n\nid: 8\ndata: cut");
  parser.reset();
  assert.equal(parser.lastEventId, "7", "kept for the Last-Event-ID header");
  // The standard's text starts each stream's buffer empty; Chromium and Firefox start it from
  // the last event ID, so an event after a reconnection keeps the id it resumed from.
  assert.deepEqual(parser.push("data: b\n\n").map((e) => e.id), ["7"]);
});
