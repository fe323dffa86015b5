/**
 * A stream's messages checkable as a list and capturable (issue 55): the
 * count (`length`), every message (`each: true`), any message (`contains`,
 * a filter that must match), and captures of one message, of a filtered
 * one and of the whole list (a list capture) sent on to the next call —
 * against grpc-js's atlas server (ListPlaces: server-streaming, TripChat:
 * bidirectional). The checks docs/grpc.md gives as examples of a stream's
 * list are taken from its text and run here, so they cannot drift from
 * what the loader takes.
 */
import assert from "node:assert/strict";
import { runReport } from "./support.ts";
import { servedAtlas } from "./served.ts";

const DOCS = await Deno.readTextFile(new URL("../../../docs/grpc.md", import.meta.url));

/** The `{path: …}` checks docs/grpc.md gives in "What the checks read". */
function documentedChecks(): string[] {
  const section = DOCS.split("## What the checks read")[1].split("\n## ")[0];
  return [...section.matchAll(/`(\{path: [^`]+\})`/g)].map((m) => m[1]);
}

const target = `      target: "127.0.0.1:\${vars.port}"\n      proto: protos/atlas.proto\n`;

function flow(listChecks: string[], chatChecks: string[], chatAlways = false): string {
  return `name: stream lists
vars: { port: "0" }
steps:
  - name: places
    grpc:
${target}      method: atlas.Atlas/ListPlaces
      message:
        lo: { latitude: 400000000, longitude: -750000000 }
        hi: { latitude: 420000000, longitude: -730000000 }
    capture:
      first: $.json[0].name
      north: "$.json[?@.location.latitude > 410000000].name"
      names: "$.json[*].name"
    assert:
      json:
${listChecks.map((c) => `        - ${c}\n`).join("")}        - { path: $.json, length: 3 }
        - { path: "$.json[*].location.latitude", each: true, gte: 400000000 }
        - { path: "$.json[*].name", contains: "Cedar Marsh Boardwalk and Heron Hide, Ardent Vale, east 14" }
        - { path: "$.json[?@.location.longitude < -741000000]", exists: true }
  - name: chat
${chatAlways ? "    always: true\n" : ""}    grpc:
${target}      method: atlas.Atlas/TripChat
      messages:
        - { message: "\${steps.places.capture.first}" }
        - { message: "all: \${steps.places.capture.names}" }
    capture:
      echoes: "$.json[*].message"
    assert:
      json:
${chatChecks.map((c) => `        - ${c}\n`).join("")}        - { path: $.json, length: 2 }
        - { path: "$.json[0].message", equals: "echo: \${steps.places.capture.first}" }
        - { path: "$.json[1].message", matches: '^echo: all: \\["[^"]+","[^"]+","Cedar Marsh[^"]+"\\]$' }
`;
}

/** A step of the JSON report, as these tests read it. */
interface Step {
  status: string;
  captures: string[];
  assertions: { passed: boolean; message: string }[];
}

function run(yaml: string, port: number) {
  return runReport<Step>(yaml, port);
}

Deno.test("a stream's messages as a list: count, each, any, captured (one, filtered, all), docs/grpc.md's checks as written", async () => {
  const documented = documentedChecks();
  assert.ok(documented.length >= 2, `docs/grpc.md gives list checks: ${documented}`);
  const server = await servedAtlas();
  try {
    const onChat = documented.filter((c) => c.includes("message"));
    const onList = documented.filter((c) => !c.includes("message"));
    const { cli, steps } = await run(flow(onList, onChat), server.port);
    assert.equal(cli.code, 0, cli.stdout + cli.stderr);
    const [places, chat] = steps;
    assert.equal(places.status, "passed");
    assert.equal(chat.status, "passed");
    assert.deepEqual(places.captures.sort(), ["first", "names", "north"]);
    assert.equal(places.assertions.length, documented.length - onChat.length + 4);
    // What the server echoed: the first name, then the captured list of three in text, as JSON.
    assert.equal(chat.assertions.length, onChat.length + 3);
    assert.ok(chat.assertions.every((a: { passed: boolean }) => a.passed));
  } finally {
    await server.close();
  }
});

Deno.test("each names the message that breaks it; a count or an any that does not hold fails", async () => {
  const server = await servedAtlas();
  try {
    const { cli, steps } = await run(
      flow(
        [
          `{ path: $.json, length: 4 }`,
          `{ path: "$.json[*].name", contains: "Nowhere" }`,
        ],
        [`{ path: "$.json[*].message", each: true, matches: "^echo: Cedar" }`],
        true,
      ),
      server.port,
    );
    assert.equal(cli.code, 1, cli.stdout);
    const failed = steps.flatMap((s: { assertions: { passed: boolean; message: string }[] }) =>
      s.assertions.filter((a) => !a.passed).map((a) => a.message)
    );
    assert.equal(failed.length, 3, JSON.stringify(failed));
    assert.match(failed[0], /\$\.json: expected length 4, got 3/);
    assert.match(failed[1], /\$\.json\[\*\]\.name/);
    assert.match(failed[2], /value 1 of 2: "echo: Old Ferry Landing[^"]*" does not match/);
  } finally {
    await server.close();
  }
});
