/**
 * `convert har` reads JSON inside a frame and replays a long-poll after the
 * write it waited for (`framed_json.ts`, `framed_producers.ts`,
 * `answer_order.ts`), on the Socket.IO recording of
 * `tests/real/socketio_har_test.ts` (which runs it on the real server) and
 * on hand-made recordings of the other frames. Fast: no server.
 */
import assert from "node:assert/strict";
import { parse } from "yaml";
import { convertHar } from "../../lib/convert/har.ts";

const SOCKET_IO = new URL("../real/fixtures/socketio/chat.pw.har", import.meta.url).pathname;

interface FlowStep {
  name: string;
  request?: { method: string; url: string; body?: unknown };
  capture?: Record<string, { regex?: string }>;
}

const stepsOf = (yaml: string) => (parse(yaml) as { steps: FlowStep[] }).steps;

Deno.test("an Engine.IO session id and a Socket.IO acknowledgement's ticket are captured from their frames", async () => {
  const { yaml } = convertHar(await Deno.readTextFile(SOCKET_IO));
  const steps = stepsOf(yaml);
  const sid = steps[0].capture?.sid;
  assert.ok(sid?.regex, yaml);
  assert.equal(
    new RegExp(sid.regex).exec('0{"sid":"abcDEF123456","upgrades":[]}')?.[1],
    "abcDEF123456",
  );
  // Every later request of the session sends the captured id, none the recorded one.
  const later = steps.slice(1).filter((s) => /sid=/.test(s.request?.url ?? ""));
  assert.ok(later.length >= 3, yaml);
  for (const s of later) {
    assert.match(s.request!.url, /sid=\$\{steps\.get_socket_io\.capture\.sid\}/);
  }
  const ticket = steps.at(-1)!;
  assert.match(ticket.request!.url, /\/api\/tickets\/\$\{steps\.\w+\.capture\.ticket\}$/);
});

Deno.test("the long-poll answered during the join is replayed after the join", async () => {
  const { yaml } = convertHar(await Deno.readTextFile(SOCKET_IO));
  const steps = stepsOf(yaml);
  const join = steps.findIndex((s) => String(s.request?.body ?? "").includes('"join"'));
  const poll = steps.findIndex((s) => s.capture?.ticket !== undefined);
  assert.ok(join >= 0 && poll > join, yaml);
});

Deno.test("a guarded JSON body ()]}' or while(1);) hands out its id; plain JSON and a repeated key do not go by regex", () => {
  const entry = (method: string, url: string, started: string, text: string, body?: string) => ({
    startedDateTime: started,
    time: 5,
    request: {
      method,
      url,
      headers: [],
      ...(body ? { postData: { mimeType: "application/json", text: body } } : {}),
    },
    response: { status: 200, headers: [], content: { mimeType: "application/json", text } },
    _resourceType: "fetch",
  });
  const har = {
    log: {
      entries: [
        entry(
          "GET",
          "http://a.test/api/me",
          "2026-11-26T05:00:00.000Z",
          `)]}'\n{"user":"u_9f3ac21b77"}`,
        ),
        entry(
          "GET",
          "http://a.test/api/list",
          "2026-11-26T05:00:01.000Z",
          `while(1);{"items":[{"ref":"r_1a2b3c4d5e"},{"ref":"r_6f7a8b9c0d"}]}`,
        ),
        entry("GET", "http://a.test/api/users/u_9f3ac21b77", "2026-11-26T05:00:02.000Z", "{}"),
        entry("GET", "http://a.test/api/refs/r_1a2b3c4d5e", "2026-11-26T05:00:03.000Z", "{}"),
      ],
    },
  };
  const { yaml } = convertHar(JSON.stringify(har));
  const steps = stepsOf(yaml);
  assert.equal(steps[2].request?.url, "${vars.base_url}/api/users/${steps.get_me.capture.user}");
  assert.equal(new RegExp(steps[0].capture!.user.regex!).exec(`)]}'\n{"user":"x_1"}`)?.[1], "x_1");
  // "ref" occurs twice: a pattern could read the wrong one, so the value is not captured that way.
  assert.equal(steps[3].request?.url, "${vars.base_url}/api/refs/r_1a2b3c4d5e");
});
