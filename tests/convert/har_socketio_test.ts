/**
 * `convert har` on the shapes a Socket.IO journey takes in a fresh Chromium
 * recording (`tests/real/socketio_har_test.ts` records them against the real
 * server), built by hand so each one is converted every time: an Engine.IO
 * session id with no digit, an acknowledgement that came on the WebSocket
 * after the page's next poll began, a poll held until the upgrade. Fast: no
 * server.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { convertHar } from "../../lib/convert/har.ts";
import { produceFramed } from "../../lib/convert/correlate/framed_producers.ts";
import { emptyCorrelator } from "../../lib/convert/correlate/state.ts";
import { valueKey } from "../../lib/convert/json.ts";
import type { Step } from "../../lib/convert/model.ts";

interface FlowStep {
  name: string;
  request?: { method: string; url: string; body?: unknown };
  websocket?: { url: string; send?: unknown[]; count?: number; until?: string; wait?: string };
  capture?: Record<string, { regex?: string }>;
}

const stepsOf = (yaml: string) => (parse(yaml) as { steps: FlowStep[] }).steps;

const T0 = Date.UTC(2026, 10, 26, 8, 0, 0);
const ORIGIN = "http://127.0.0.1:37133";

/** A request at `at` ms that took `time` ms, answered `text` (plain text unless told). */
function http(at: number, time: number, method: string, path: string, text: string, body = "") {
  return {
    startedDateTime: new Date(T0 + at).toISOString(),
    time,
    timings: { send: 0, wait: time - 1, receive: 1 },
    request: {
      method,
      url: `${ORIGIN}${path}`,
      headers: [],
      ...(body ? { postData: { mimeType: "text/plain;charset=UTF-8", text: body } } : {}),
    },
    response: {
      status: 200,
      headers: [],
      content: { mimeType: text.startsWith("{") ? "application/json" : "text/plain", text },
    },
    _resourceType: path.startsWith("/api/") ? "fetch" : "xhr",
  };
}

/** The socket opened at `at`, its frames `[ms, "send" | "receive", data]`. */
function socket(at: number, sid: string, frames: [number, "send" | "receive", string][]) {
  return {
    startedDateTime: new Date(T0 + at).toISOString(),
    time: 5,
    request: {
      method: "GET",
      url: `${ORIGIN.replace("http", "ws")}/socket.io/?EIO=4&transport=websocket&sid=${sid}`,
      headers: [],
    },
    response: { status: 101, headers: [], content: { mimeType: "x-unknown", text: "" } },
    _resourceType: "websocket",
    _webSocketMessages: frames.map(([ms, type, data]) => ({
      type,
      time: T0 + ms,
      opcode: 1,
      data,
    })),
  };
}

const poll = (sid: string, t: string) => `/socket.io/?EIO=4&transport=polling&t=${t}&sid=${sid}`;
const OPEN = (sid: string) =>
  `0{"sid":"${sid}","upgrades":["websocket"],"pingInterval":25000,"pingTimeout":20000}`;
const TICKET = "7d6cbb29-0e81-45e3-9bec-6976e234ce5c";
const ACK = `430[{"ticket":"${TICKET}","room":"lobby"}]`;

/** The journey's start: open, connect, welcome; then `rest`. */
function journey(sid: string, rest: unknown[]): string {
  return JSON.stringify({
    log: {
      entries: [
        http(0, 10, "GET", "/socket.io/?EIO=4&transport=polling&t=a1", OPEN(sid)),
        http(20, 10, "POST", poll(sid, "a2"), "ok", "40"),
        http(
          22,
          10,
          "GET",
          poll(sid, "a3"),
          '40{"sid":"ETZJG1dmLMgudPK0AAAA"}\x1e42["welcome",{}]',
        ),
        ...rest,
      ],
    },
  });
}

/** The journey where the join and its acknowledgement go over the upgraded socket. */
const onSocket = (sid: string) =>
  journey(sid, [
    socket(40, sid, [[41, "send", "2probe"], [43, "receive", "3probe"], [45, "send", "5"], [
      46,
      "send",
      '420["join",{"room":"lobby"}]',
    ], [50, "receive", ACK]]),
    http(52, 2, "GET", `/api/tickets/${TICKET}`, `{"ticket":"${TICKET}","known":true}`),
  ]);

Deno.test("an Engine.IO session id of letters, '-' and '_' alone is captured: its open packet issued it", () => {
  for (const sid of ["xveS-nylCjZPmF_nAAAA", "hSCFxM_8M0iyrzM_AAAA", "NStFsLhZwIUEfXhAAAAA"]) {
    const { yaml } = convertHar(onSocket(sid));
    const steps = stepsOf(yaml);
    assert.ok(steps[0].capture?.sid?.regex, yaml);
    const sent = steps.slice(1).map((s) => s.request?.url ?? s.websocket?.url ?? "")
      .filter((u) => u.includes("sid="));
    assert.equal(sent.length, 3, yaml);
    for (const url of sent) assert.match(url, /sid=\$\{steps\.get_socket_io\.capture\.sid\}$/);
    const sends = yaml.split("\n").filter((line) => !line.trimStart().startsWith("#"));
    assert.ok(!sends.some((line) => line.includes(`sid=${sid}`)), yaml);
  }
});

Deno.test("words a framed answer names and a later query sends again are no captures", () => {
  const words = [
    "default",
    "message",
    "chat",
    "internationalization",
    "someLongVariableName",
    "Content-Security-Policy",
  ];
  const fields = words.map((w, i) => `"k${i}":"${w}"`).join(",");
  const query = words.map((w, i) => `k${i}=${w}`).join("&");
  const har = journey("x0veS2nylCjZPmFnAAAA", [
    http(40, 5, "GET", poll("x0veS2nylCjZPmFnAAAA", "a4"), `42["settings",{${fields}}]`),
    http(50, 5, "GET", `/api/search?${query}`, "{}"),
  ]);
  const { yaml } = convertHar(har);
  const search = stepsOf(yaml).at(-1)!;
  assert.equal(search.request?.url, `\${vars.base_url}/api/search?${query}`, yaml);
});

/** The steps' names and what each sends, and the flow's notes. */
function converted(har: string) {
  const { yaml, summary } = convertHar(har);
  return { yaml, steps: stepsOf(yaml), notes: summary.notes.join("\n") };
}

Deno.test("a poll sent while the socket was probed is dropped: the socket's step replays the join and waits for its acknowledgement", () => {
  // Recorded in Chromium: the welcome came in a poll that began after the socket opened, before
  // the upgrade (`5`); the join and its acknowledgement then went over the socket.
  const sid = "M-Vs3rCmzFtmk1ZgAAAA";
  const { yaml, steps, notes } = converted(journey(sid, [
    socket(26, sid, [
      [49, "send", "2probe"],
      [76, "receive", "3probe"],
      [83, "send", "5"],
      [84, "send", '420["join",{"room":"lobby"}]'],
      [86, "receive", ACK],
    ]),
    http(56, 23, "GET", poll(sid, "a4"), '42["welcome",{"hello":"there"}]'),
    http(88, 2, "GET", `/api/tickets/${TICKET}`, `{"ticket":"${TICKET}","known":true}`),
  ]));
  assert.ok(!steps.some((s) => s.request?.url.includes("t=a4")), yaml);
  const ws = steps.find((s) => s.websocket)!;
  assert.deepEqual(
    (ws.websocket!.send ?? []).map((m) => (m as { text: string }).text),
    ["2probe", "5", '420["join",{"room":"lobby"}]'],
    yaml,
  );
  assert.ok(ws.capture?.ticket, yaml);
  // It receives until the acknowledgement came, however many other packets the server sends first.
  assert.equal(ws.websocket!.until, `$[?search(@, '"ticket":')]`, yaml);
  assert.equal(ws.websocket!.count, undefined, yaml);
  assert.equal(
    steps.at(-1)!.request?.url,
    `\${vars.base_url}/api/tickets/\${steps.${ws.name}.capture.ticket}`,
    yaml,
  );
  assert.match(notes, /poll .*GET \/socket\.io\/.*while the WebSocket/i);
});

Deno.test("a poll held until the upgrade is dropped; a poll whose answer a later request reads is kept", () => {
  // Recorded in Chromium: the join went over polling before the upgrade; the next poll was held
  // until the socket sent `5`, answered with a noop (`6`), and replayed it waited out the ping.
  const sid = "ZcULfE8X2n4szkw1AAAA";
  const { yaml, steps } = converted(journey(sid, [
    socket(30, sid, [[56, "send", "2probe"], [65, "receive", "3probe"], [185, "send", "5"]]),
    http(34, 10, "GET", poll(sid, "a4"), ACK),
    http(36, 4, "POST", poll(sid, "a5"), "ok", '420["join",{"room":"lobby"}]'),
    http(49, 123, "GET", poll(sid, "a6"), "6"),
    http(50, 9, "GET", `/api/tickets/${TICKET}`, `{"ticket":"${TICKET}","known":true}`),
  ]));
  const urls = steps.map((s) => s.request?.url ?? "");
  assert.ok(!urls.some((u) => u.includes("t=a6")), yaml);
  const ack = steps.findIndex((s) => s.request?.url.includes("t=a4"));
  const join = steps.findIndex((s) => s.request?.url.includes("t=a5"));
  assert.ok(join >= 0 && ack > join, yaml);
  assert.equal(
    urls.at(-1),
    `\${vars.base_url}/api/tickets/\${steps.${steps[ack].name}.capture.ticket}`,
    yaml,
  );
  // A poll that began before the socket opened is the page's, not the socket's: kept.
  assert.ok(urls.some((u) => u.includes("t=a3")), yaml);
});

Deno.test("every Engine.IO session id shape is taken for an id: 5,000 of them, drawn as the server draws them", () => {
  // base64id: 15 random bytes in base64url, the last 4 characters a counter (`AAAA` first).
  const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  let seed = 52;
  const next = () => { // xorshift32: the same draw every run
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) % 64;
  };
  const missed: string[] = [];
  let digitless = 0;
  for (let i = 0; i < 5000; i++) {
    const sid = Array.from({ length: 16 }, () => ALPHABET[next()]).join("") + "AAAA";
    if (!/\d/.test(sid)) digitless++;
    const c = emptyCorrelator("a", true);
    const last = { mimeType: "text/plain", hasJson: false, responseText: OPEN(sid) };
    produceFramed(c, { last } as unknown as Step);
    if (c.producers.get(valueKey(sid))?.source.kind !== "regex") missed.push(sid);
  }
  assert.deepEqual(missed, []);
  assert.ok(digitless > 100, `the draw holds ${digitless} ids with no digit`);
});

Deno.test("a poll is the socket's only when it sends the session an answer issued: a shared setting or another endpoint is kept", () => {
  // The socket and the polls share `client=webapp`, which no answer issued: a setting of the
  // page, not a session. A GET to another endpoint after the socket opened is the page's own.
  const ws = socket(30, "none", [[31, "send", "hello"], [33, "receive", "hi"]]);
  ws.request.url = `${ORIGIN.replace("http", "ws")}/live?client=webapp`;
  const har = JSON.stringify({
    log: {
      entries: [
        http(0, 5, "GET", "/api/me", '{"name":"ann"}'),
        ws,
        http(40, 90, "GET", "/live?client=webapp&since=1", "6"),
        http(50, 90, "GET", "/api/status?client=webapp", "ok"),
      ],
    },
  });
  const { yaml, steps } = converted(har);
  const urls = steps.map((s) => s.request?.url ?? "");
  assert.ok(urls.some((u) => u.endsWith("/live?client=webapp&since=1")), yaml);
  assert.ok(urls.some((u) => u.endsWith("/api/status?client=webapp")), yaml);
});
