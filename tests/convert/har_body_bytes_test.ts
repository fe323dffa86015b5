/**
 * `recordedBytes` (lib/convert/har_body_bytes.ts) on the shapes each producer gives a request
 * body, as headless Chromium recorded them with playwright-core 1.65 and chrome-har 1.3: the
 * evidence that a text is one character per byte, or lost bytes, and the texts it must leave
 * alone (typed accents, a framing's control characters in UTF-8, a JSON `{}` as params).
 */
import assert from "node:assert/strict";
import { recordedBytes } from "../../lib/convert/har_body_bytes.ts";
import { inlineAttached } from "../../lib/convert/har_attached.ts";

const length = (n: number) => [{ name: "Content-Length", value: String(n) }];
const latin1 = (bytes: number[]) => String.fromCharCode(...bytes);

Deno.test("recordedBytes: one character per byte is bytes when the length or a control byte says so", () => {
  const bytes = [0xc3, 0xa9, 0x41, 0xff, 0x00, 0x41];
  for (const headers of [length(6), []]) {
    const read = recordedBytes({ text: latin1(bytes) }, headers);
    assert.equal(read?.kind, "bytes");
    assert.deepEqual([...(read as { bytes: Uint8Array }).bytes], bytes);
  }
  // Gzip's magic, compressed data: no control byte, Content-Length counts one per character.
  const gzip = [0x1f, 0x8b, 0x08, 0x00, 0xcb, 0xe5];
  assert.equal(recordedBytes({ text: latin1(gzip) }, length(6))?.kind, "bytes");
});

Deno.test("recordedBytes: typed text and UTF-8 framing stay text", () => {
  // UTF-8 text: Content-Length counts its UTF-8 bytes.
  assert.equal(recordedBytes({ text: "café" }, length(5)), undefined);
  // chrome-har's character count and no control byte: typed text, not bytes.
  assert.equal(recordedBytes({ text: "naïve ÿ" }, []), undefined);
  // A protobuf frame in UTF-8 (controls, ASCII): the text is the bytes already.
  assert.equal(recordedBytes({ text: "\u0012$id\u001a\u0002ok" }, length(9)), undefined);
  // Text beyond Latin-1 is decoded UTF-8.
  assert.equal(recordedBytes({ text: "日本\u0000" }, []), undefined);
  // chrome-har's JSON `{}` as params, and an empty body.
  assert.equal(recordedBytes({ params: [] }, length(2)), undefined);
  assert.equal(recordedBytes({ text: "", params: [] }, length(0)), undefined);
  // A literal U+FFFD that Content-Length confirms was sent.
  assert.equal(recordedBytes({ text: "a\ufffd" }, length(4)), undefined);
});

Deno.test("recordedBytes: base64 is decoded, text or bytes; replaced or missing bytes are lost", () => {
  assert.deepEqual(recordedBytes({ text: btoa('{"a":1}'), encoding: "base64" }, []), {
    kind: "text",
    text: '{"a":1}',
  });
  assert.equal(
    recordedBytes({ text: btoa(latin1([0xff, 0x00])), encoding: "base64" }, [])?.kind,
    "bytes",
  );
  assert.deepEqual(recordedBytes({ text: "\b\ufffd\u0001" }, length(4)), {
    kind: "lost",
    why: "replaced",
  });
  // No length: U+FFFD in a request body is a producer's replacement, not typed.
  assert.equal(recordedBytes({ text: "\ufffd" }, [])?.kind, "lost");
  assert.deepEqual(recordedBytes({ text: "", params: [] }, length(7)), {
    kind: "lost",
    why: "empty",
  });
});

Deno.test("inlineAttached: a binary body is put back as base64, a binary multipart stays unrecorded", () => {
  const har = (mimeType: string) =>
    new TextEncoder().encode(JSON.stringify({
      log: { entries: [{ request: { postData: { mimeType, text: "", _file: "b.dat" } } }] },
    }));
  const files = new Map([["b.dat", new Uint8Array([0xff, 0x00, 0x80])]]);
  const post = (bytes: Uint8Array) =>
    JSON.parse(new TextDecoder().decode(bytes)).log.entries[0].request.postData;
  const binary = post(inlineAttached(har("application/x-protobuf"), files).bytes);
  assert.deepEqual([binary.text, binary.encoding], [btoa(latin1([0xff, 0x00, 0x80])), "base64"]);
  const upload = post(inlineAttached(har("multipart/form-data; boundary=x"), files).bytes);
  assert.deepEqual([upload.text, upload.encoding], ["", undefined]);
});
