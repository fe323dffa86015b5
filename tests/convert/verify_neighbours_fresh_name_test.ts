/**
 * `--verify` finds a listed element by a sibling member when its position
 * is not stable. A product that builds an element's address from the name
 * the user typed (`http://NAME.example.com`) lists that address beside the
 * name; when the flow makes the name fresh on every run (a name the
 * recording's random words made), the filter must hold the fresh name
 * inside the address too, not the recorded one: the live list never holds
 * the recorded address, and every step after the capture went unsent.
 */
import assert from "node:assert/strict";
import { byNeighbours } from "../../lib/convert/verify_neighbours.ts";
import { emptyCorrelator } from "../../lib/convert/correlate/state.ts";

Deno.test("a listed address that embeds a name made fresh is filtered by the fresh name", () => {
  const c = emptyCorrelator("a", true);
  c.generated.set("brisk-tern-4417", "brisk-tern-${RUN_ID}");
  const instances = [
    { url: "http://quiet-heron-2290.example.com", ref: "7d1c0b9e-aa41-4c55-9a0e-1f2d3c4b5a69" },
    { url: "http://brisk-tern-4417.example.com", ref: "0f9e8d7c-6b5a-4c3d-8e1f-2a3b4c5d6e7f" },
  ];
  const path = byNeighbours(c, { instances }, ["instances", 1, "ref"]);
  assert.deepEqual(path[1], { key: "url", value: "http://brisk-tern-${RUN_ID}.example.com" });
});

Deno.test("a listed address with no made value in it is filtered as recorded", () => {
  const c = emptyCorrelator("a", true);
  c.generated.set("brisk-tern-4417", "brisk-tern-${RUN_ID}");
  const instances = [
    { url: "http://quiet-heron-2290.example.com", ref: "7d1c0b9e-aa41-4c55-9a0e-1f2d3c4b5a69" },
    { url: "http://calm-gull-8801.example.com", ref: "0f9e8d7c-6b5a-4c3d-8e1f-2a3b4c5d6e7f" },
  ];
  const path = byNeighbours(c, { instances }, ["instances", 1, "ref"]);
  assert.deepEqual(path[1], { key: "url", value: "http://calm-gull-8801.example.com" });
});
