/**
 * flowrun's gRPC channels are closed when a run ends
 * (lib/kinds/grpc/channel.ts): a process that ran gRPC steps, whose server
 * then shut down, is not aborted by the server's GOAWAY (Deno 2.9.6,
 * denoland/deno#36788). The abort is not certain in any one round: before
 * the channels were closed, these 20 rounds aborted in 2 runs of 3 (in the
 * first round, and the seventh), and a loop of 3 calls a round, the server
 * shut down after each, in the first round 3 times in 3.
 */
import assert from "node:assert/strict";

const ROUNDS = new URL("./goaway_rounds.ts", import.meta.url).pathname;

Deno.test("a run's gRPC channels are closed at its end: a server's GOAWAY after it aborts nothing", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ROUNDS, "20"],
    cwd: new URL("../../../", import.meta.url).pathname,
    stdin: "null",
  }).output();
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  assert.equal(out.signal, null, text);
  assert.equal(out.code, 0, text);
  assert.match(text, /^rounds 20$/m);
});
