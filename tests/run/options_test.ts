import assert from "node:assert/strict";
import { DEFAULT_TIMEOUT_MS, newRunId } from "../../lib/run/options.ts";

Deno.test("a run id is the UTC time to the second plus random hex, fresh each time", () => {
  const at = new Date("2026-01-02T03:04:05.678Z");
  const id = newRunId(at);
  assert.match(id, /^20260102-030405-[0-9a-f]{6}$/);
  assert.notEqual(newRunId(at), id);
  assert.equal(DEFAULT_TIMEOUT_MS, 30_000);
});
