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

Deno.test("backslash escapes of YAML and of a rejected escape map back to what was written", () => {
  // YAML's `\x` and `\U`, and JSON's `\u`, each to the escape that wrote the character.
  assert.ok(source('url: "k=Zq\\x37#x!"', "Zq7#x!").includes("Zq\\x37#x!"));
  assert.ok(source('"Zq\\U00000037#x!"', "Zq7#x!").includes("Zq\\U00000037#x!"));
  assert.ok(source('"tok_\\u0039fK2"', "tok_9fK2").includes("tok_\\u0039fK2"));
  // An escape YAML rejects, a shell's `\!`: the character the user meant.
  assert.ok(source('"Zq7\\#x\\!"', "Zq7#x!").includes("Zq7\\#x\\!"));
  assert.ok(source('"rX4v\\B8nL"', "rX4vB8nL").includes("rX4v\\B8nL"));
  // Under JSON's own escaping (a report keeping the line): `\\x37` is the text `\x37`, decoded next.
  assert.ok(source('{"excerpt":"k=Zq\\\\x37#x!"}', "Zq7#x!").length > 0);
  // A line break is not escaped to itself (it ends the line a problem quotes); nor is a code
  // point past Unicode's last.
  assert.deepEqual(source("a\\\nb", "a\nb"), []);
  assert.deepEqual(source("\\UFFFFFFFF", "\uFFFF"), []);
});
