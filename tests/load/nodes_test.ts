/** YAML nodes without the yaml package (lib/load/nodes.ts). */
import assert from "node:assert/strict";
import {
  documentNode,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  mapNode,
  pairNode,
  scalarNode,
  seqNode,
} from "../../lib/load/nodes.ts";
import { yamlEngine } from "../../lib/load/yaml_engine.ts";

Deno.test("the fast nodes and the yaml package's nodes pass the same type tests", async () => {
  const fast = mapNode(0);
  fast.items.push(pairNode(scalarNode("a", "PLAIN", "a", [0, 1, 1]), seqNode(3)));
  const yaml = await yamlEngine.load();
  const parsed = yaml.parseDocument("a: [1]\nb: &x 1\nc: *x\n").contents as typeof fast;
  for (const map of [fast, parsed]) {
    assert.ok(isMap(map));
    const node: unknown = map;
    assert.ok(!isSeq(node) && !isScalar(node));
    assert.ok(isScalar(map.items[0].key));
    assert.ok(isSeq(map.items[0].value));
  }
  assert.ok(isAlias(parsed.items[2].value));
  assert.ok(!isMap({ items: [] }) && !isScalar("a") && !isSeq([]));
  assert.equal(documentNode(fast).contents, fast);
});

Deno.test("line positions: 1-based, the start of each line is column 1", () => {
  const lines = new LineCounter();
  for (const start of [0, 5, 6]) lines.addNewLine(start);
  assert.deepEqual(lines.linePos(0), { line: 1, col: 1 });
  assert.deepEqual(lines.linePos(4), { line: 1, col: 5 });
  assert.deepEqual(lines.linePos(5), { line: 2, col: 1 });
  assert.deepEqual(lines.linePos(9), { line: 3, col: 4 });
});
