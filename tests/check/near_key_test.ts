/** "Did you mean" for a path that found nothing. */
import assert from "node:assert/strict";
import { nearKey } from "../../lib/check/near_key.ts";
import { compilePath, select } from "../../lib/expr/path.ts";

const body = { json: { article: { favorited: true, slug: "s", id: 1 }, list: [{ a: 1 }] } };
const near = (path: string) => nearKey(compilePath(path, "response"), (p) => select(p, body));

Deno.test("nearKey names the key of the parent object the last name nearly spells", () => {
  assert.equal(near("$.json.article.favourited"), "$.json.article.favorited");
  assert.equal(near("$.json.article.slgu"), "$.json.article.slug");
  assert.equal(near("$.json.article.di"), undefined, "names under 4 characters are not guessed");
  assert.equal(near("$.json.article.author"), undefined);
  assert.equal(near("$.json.list[0].aaaa"), undefined);
  assert.equal(near("$.json.article['favourited']"), undefined, "only a dotted last name");
  assert.equal(near("$.json.nothing.favourited"), undefined);
});
