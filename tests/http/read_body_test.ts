import assert from "node:assert/strict";
import { readBody } from "../../lib/http/read_body.ts";
import { RequestError } from "../../lib/http/request_error.ts";

const noSpill = () => assert.fail("not spilled");

/** A stream of `count` chunks of `size` bytes, as a server sending without a length would. */
function chunks(count: number, size: number): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent++ === count) controller.close();
      else controller.enqueue(new Uint8Array(size).fill(0x62));
    },
  });
}

Deno.test("a body with a length within the caps is read whole", async () => {
  const body = await readBody(new Response("hello"), { "content-length": "5" }, 10, 10, noSpill);
  assert.equal(body, "hello");
});

Deno.test("a body announced past the cap is refused unread", async () => {
  await assert.rejects(
    () => readBody(new Response("x".repeat(50)), { "content-length": "50" }, 10, 10, noSpill),
    (error) => error instanceof RequestError && error.code === "body-too-large",
  );
});

Deno.test("a streamed body is cut off as soon as it passes the cap", async () => {
  await assert.rejects(
    () => readBody(new Response(chunks(100, 1024)), {}, 4096, 1 << 20, noSpill),
    (error) => error instanceof RequestError && /larger than 4 KiB \(the cap\)/.test(error.message),
  );
  const whole = await readBody(new Response(chunks(3, 1024)), {}, 4096, 1 << 20, noSpill);
  assert.equal(whole, "b".repeat(3072));
});
