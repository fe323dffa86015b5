/**
 * Two recordings are paired by each request's shape, its path with the
 * segments that name an instance left open. An opaque id may hold no digit
 * (a short hash of letters only, `KbGewkeDWv`), so the path's words alone
 * cannot tell it from a word. Where it came from can: an earlier answer of
 * the same recording handed it out (the create's `id`), so it is opened as
 * any id is, and the requests that send it are paired.
 */
import assert from "node:assert/strict";
import { alignRecords } from "../../lib/convert/two_recordings.ts";

const rec = (method: string, path: string, json?: unknown) =>
  ({ method, url: new URL(`http://a.test${path}`), json, hasJson: json !== undefined }) as never;

Deno.test("a path id of letters only that an earlier answer handed out is paired", () => {
  const a = [
    rec("POST", "/api/teams", { id: "Y75a1kVPD8", name: "Crew" }),
    rec("GET", "/api/teams/Y75a1kVPD8/user", { role: 50 }),
  ];
  const b = [
    rec("POST", "/api/teams", { id: "KbGewkeDWv", name: "Crew" }),
    rec("GET", "/api/teams/KbGewkeDWv/user", { role: 50 }),
  ];
  const { pairs, onlyA, onlyB } = alignRecords(a, b);
  assert.equal(pairs.length, 2);
  assert.deepEqual([onlyA.length, onlyB.length], [0, 0]);
});

Deno.test("a word no answer handed out stays part of the shape", () => {
  const a = [rec("GET", "/api/teams/settings", {}), rec("GET", "/api/teams/members", {})];
  const b = [rec("GET", "/api/teams/members", {})];
  const { pairs, onlyA } = alignRecords(a, b);
  assert.equal(pairs.length, 1);
  assert.equal((onlyA[0] as { url: URL }).url.pathname, "/api/teams/settings");
});
