import assert from "node:assert/strict";
import { decodedViews } from "../../lib/secrets/decode.ts";

/** The original text a decoded view's stretch came from. */
function source(text: string, needle: string): string[] {
  return decodedViews(text).flatMap((view) => {
    const at = view.text.indexOf(needle);
    return at === -1 ? [] : [text.slice(view.from[at], view.to[at + needle.length - 1])];
  });
}

Deno.test("each decoding maps back to the escaped stretch of the original", () => {
  assert.ok(source('{"k":"a\\u002Bb"}', "a+b").includes("a\\u002Bb"));
  assert.ok(source("x=a%2Bb&y", "a+b").includes("a%2Bb"));
  assert.ok(source("<p>a&#43;b</p>", "a+b").includes("a&#43;b"));
  // Stacked: an entity inside percent-encoding.
  assert.ok(source("q=a%26%2343%3Bb", "a+b").length > 0);
});

Deno.test("text without escapes has no decoded view, and unwanted views are not built", () => {
  assert.deepEqual(decodedViews("plain text"), []);
  assert.deepEqual(decodedViews("a%2Bb", (unit) => unit === 0x40), []);
});
