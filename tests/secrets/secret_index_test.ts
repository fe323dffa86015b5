/** Where the index finds literals, pieces of long secrets, cut secrets and JWTs in a text. */
import assert from "node:assert/strict";
import { SecretIndex, type Span } from "../../lib/secrets/secret_index.ts";

function spansOf(index: SecretIndex, text: string): Span[] {
  const spans: Span[] = [];
  index.spans(text, spans);
  return spans.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
}

Deno.test("a literal is found wherever it starts, the longest at each position", () => {
  const index = new SecretIndex();
  index.addLiteral("hunter22", false);
  index.addLiteral("hunter22-long", false);
  assert.deepEqual(spansOf(index, "a hunter22 b hunter22-long"), [[2, 10], [13, 26]]);
  assert.equal(index.literalCount, 2);
  assert.equal(index.shortest, 8);
});

Deno.test("a base64 run is widened by one character each side and its padding", () => {
  const index = new SecretIndex();
  index.addLiteral("QUJD", true);
  assert.deepEqual(spansOf(index, "x=aQUJDb== y"), [[2, 10]]);
});

Deno.test("a piece of a long secret, a secret cut short, and a JWT are found", () => {
  const index = new SecretIndex();
  const secret = "0123456789abcdefghijklmnopqrstuv";
  index.addLiteral(secret, false);
  index.addPieces(secret);
  assert.deepEqual(spansOf(index, "…ghijklmnopqrstuv…"), [[1, 17]]);
  assert.deepEqual(spansOf(index, "token 01234567…"), [[6, 14]]);
  const jwt = "eyJhbGciOi.eyJzdWIi.sig";
  assert.deepEqual(spansOf(new SecretIndex(), `t=${jwt}`), [[2, 2 + jwt.length]]);
});

Deno.test("a secret found whole is one span, and pieces reaching past it still count", () => {
  const index = new SecretIndex();
  const secret = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ+-";
  index.addLiteral(secret, false);
  index.addPieces(secret);
  // Its 49 pieces lie inside the literal's hit: not looked up, not 49 spans to merge.
  assert.deepEqual(spansOf(index, `a ${secret} b`), [[2, 66]]);
  // A second secret beginning inside the first: its pieces that reach past the first's end
  // are found, and so is the second whole.
  const second = secret.slice(48) + "!abcdefghijklmno";
  index.addPieces(second);
  const text = `${secret}!abcdefghijklmno`;
  const spans = spansOf(index, text);
  assert.deepEqual(spans[0], [0, 64]);
  assert.equal(Math.max(...spans.map(([, e]) => e)), text.length);
  // Pieces alone (a fragment of the first, no literal hit): each position still looked up.
  assert.deepEqual(spansOf(index, `x ${secret.slice(10, 40)} y`).length, 15);
});
