/**
 * Each kind's docs page holds one recipe (issue 55, "docs with one recipe
 * each"), and the recipe is the flow its tests run: docs/sse.md and
 * docs/websocket.md include their fixtures byte for byte (run green by
 * tests/kinds/sse/recipe_test.ts and tests/kinds/websocket/chat_test.ts);
 * docs/grpc.md's is taken from the page by tests/kinds/grpc/run_test.ts.
 */
import assert from "node:assert/strict";
import { KINDS } from "../../lib/kinds/mod.ts";

const ROOT = new URL("../../", import.meta.url);
const read = (path: string) => Deno.readTextFile(new URL(path, ROOT));

const RECIPES: Record<string, string> = {
  sse: "tests/fixtures/sse/progress.yaml",
  websocket: "tests/fixtures/websocket/chat.yaml",
};

/** The first fenced YAML block after a "## Recipe" heading. */
function recipeOf(page: string): string | undefined {
  const after = page.split(/^## Recipe\b.*$/m)[1];
  return after === undefined ? undefined : /```yaml\n([^]*?)```/.exec(after)?.[1];
}

Deno.test("each kind's page has a recipe; SSE's and WebSocket's are their tests' fixtures byte for byte", async () => {
  for (const kind of KINDS.filter((k) => k.key !== "request")) {
    const page = await read(kind.docs);
    const recipe = recipeOf(page);
    assert.ok(recipe, `${kind.docs} has a "## Recipe" with a yaml block`);
    assert.match(
      recipe,
      new RegExp(`^\\s+${kind.key}:$`, "m"),
      `${kind.docs}'s recipe has a ${kind.key}: step`,
    );
    const fixture = RECIPES[kind.key];
    if (fixture) assert.equal(recipe, await read(fixture), `${kind.docs}'s recipe is ${fixture}`);
  }
});
