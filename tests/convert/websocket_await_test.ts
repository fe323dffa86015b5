/**
 * A converted websocket step whose capture reads a received message waits
 * for that message (`until`), instead of for as many messages as the
 * recording held: on a live Node-RED the deploy revision arrived after the
 * recorded count of frames, the capture matched nothing and 51 of 67 steps
 * were skipped after it.
 */
import assert from "node:assert/strict";
import { awaitedCaptures } from "../../lib/convert/correlate/websocket_await.ts";
import { Spelling } from "../../lib/convert/spelling.ts";
import { ymap } from "../../lib/convert/yaml_out.ts";
import { loadFlow } from "../../lib/load/load_flow.ts";
import { withEngines } from "../../lib/load/engines.ts";

Deno.test("a capture from a received frame reads any frame and the step waits until one holds it", () => {
  const got = awaitedCaptures(
    ymap([["send", ["hello"]], ["count", 3]]),
    [
      ["revision", {
        kind: "json",
        path: [
          "messages",
          1,
          { key: "topic", value: "notification/runtime-deploy" },
          "data",
          "revision",
        ],
      }],
      ["ticket", { kind: "json", path: ["messages", 0, "ticket"] }],
      ["other", { kind: "header", name: "x-id" }],
    ],
    new Spelling("a"),
  )!;
  assert.deepEqual(got.websocket.entries.map(([k]) => k), ["send", "until", "wait"]);
  assert.equal(
    got.websocket.entries[1][1],
    "$[*][?@.topic == 'notification/runtime-deploy'].data.revision",
  );
  const [revision, ticket, other] = got.captures.map(([, node]) => JSON.stringify(node));
  assert.match(
    revision,
    /\$\.json\.messages\[\*\]\[\?@\.topic == 'notification\/runtime-deploy'\]\.data\.revision/,
  );
  assert.match(ticket, /\$\.json\.messages\[\*\]\.ticket/);
  assert.match(revision, /"first",true/);
  assert.match(other, /x-id/);
  // Spelling B reads the body at $: the same rewrite.
  const b = awaitedCaptures(ymap([["count", 1]]), [["t", {
    kind: "json",
    path: ["messages", 0, "t"],
  }]], new Spelling("b"))!;
  assert.match(JSON.stringify(b.captures[0][1]), /\$\.messages\[\*\]\.t/);
  assert.equal(awaitedCaptures(ymap([["count", 1]]), [], new Spelling("a")), undefined);
  // A filter over the messages (the chat's subscribed message) is kept; the step waits for it.
  const filtered = awaitedCaptures(
    ymap([["count", 3]]),
    [["ticket", {
      kind: "json",
      path: ["messages", { key: "type", value: "subscribed" }, "ticket"],
    }]],
    new Spelling("a"),
  )!;
  assert.deepEqual(filtered.websocket.entries, [
    ["until", "$[?@.type == 'subscribed'].ticket"],
    ["wait", "10s"],
  ]);
  assert.match(
    JSON.stringify(filtered.captures[0][1]),
    /\$\.json\.messages\[\?@\.type == 'subscribed'\]\.ticket/,
  );
});

Deno.test("the step it writes loads: until is a JSONPath the websocket kind accepts", async () => {
  const { problems } = await withEngines(() =>
    loadFlow(
      `name: f
steps:
  - name: comms
    websocket:
      url: ws://127.0.0.1:9/comms
      until: "$[*][?@.topic == 'notification/runtime-deploy'].data.revision"
      wait: 10s
    capture:
      revision: { path: "$.json.messages[*][?@.topic == 'notification/runtime-deploy'].data.revision", first: true }
`,
      "f.yaml",
    )
  );
  assert.deepEqual(problems.map((p) => p.message), []);
});
