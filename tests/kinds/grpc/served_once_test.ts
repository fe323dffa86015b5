/**
 * The served gRPC server's retries (support.ts `withServedOnce`): again, three rounds at most, only
 * when the server's process ended by itself, never for a failure of the test's own.
 */
import assert from "node:assert/strict";
import { servedAtlas } from "./served.ts";
import { withServedOnce } from "./support.ts";

/** Waits, 10 ms at a time for 10 s at most, until `done` holds. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
}

Deno.test("a body that failed because its server aborted by itself runs once more on a new server", async () => {
  const ports: number[] = [];
  await withServedOnce(() => servedAtlas(), async (server) => {
    ports.push(server.port);
    if (ports.length > 1) return;
    Deno.kill(server.pid, "SIGABRT");
    await until(server.endedByItself);
    throw new Error("the calls failed with the server gone");
  });
  assert.equal(ports.length, 2);
  assert.notEqual(ports[0], ports[1]);
});

Deno.test("a body's own failure, or a third abort, is thrown: no more rounds", async () => {
  let rounds = 0;
  await assert.rejects(
    withServedOnce(() => servedAtlas(), () => {
      rounds++;
      return Promise.reject(new Error("a wrong answer"));
    }),
    /a wrong answer/,
  );
  assert.equal(rounds, 1);
  rounds = 0;
  await assert.rejects(
    withServedOnce(() => servedAtlas(), async (server) => {
      rounds++;
      Deno.kill(server.pid, "SIGABRT");
      await until(server.endedByItself);
      throw new Error(`aborted ${rounds}`);
    }),
    /aborted 3/,
  );
  assert.equal(rounds, 3);
});
