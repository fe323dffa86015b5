/**
 * A create refused 5xx whose collection's read was refused alike is not two
 * creates overlapping: no create refuses a read. A RealWorld API on Elysia
 * measured by hand (2026-11-30) has no `comments` table (its migrations
 * leave it out), so adding and listing an article's comments both answered
 * 500 `relation "comments" does not exist`; the coverage lines blamed the
 * create on two flows' creates overlapping and advised `--jobs 1`. Now the
 * line names the read that failed with it and advises nothing. A create
 * whose listing answered is still named as before. The converted suite of a
 * document of two flows runs against a stand-in on 127.0.0.1 refusing
 * every request to the notes 500, and the drafts' create alone.
 */
import assert from "node:assert/strict";
import { createRaceLines } from "../../lib/report/create_race.ts";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";

const json = (schema: unknown) => ({ content: { "application/json": { schema } } });
const note = {
  type: "object",
  required: ["title"],
  properties: { id: { type: "integer" }, title: { type: "string" } },
};

const collection = (tag: string) => ({
  post: {
    tags: [tag],
    requestBody: json(note),
    responses: { 201: { description: "A note", ...json(note) } },
  },
  get: {
    tags: [tag],
    responses: { 200: { description: "Notes", ...json({ type: "array", items: note }) } },
  },
});

const document = {
  openapi: "3.0.0",
  info: { title: "refused", version: "1" },
  paths: { "/notes": collection("Notes"), "/drafts": collection("Drafts") },
};

/** The notes refused whatever is asked; the drafts' create refused, their listing answered. */
function brokenNotes() {
  return serveStandIn((req) => {
    const path = new URL(req.url).pathname;
    if (path === "/notes" || req.method === "POST") {
      return Response.json({ error: 'relation "notes" does not exist' }, { status: 500 });
    }
    return Response.json([]);
  });
}

Deno.test("run: a create refused 5xx like its collection's read is not blamed on overlapping creates", async () => {
  const { runs, flows, summary } = await convertAndRunSuite(document, brokenNotes());
  assert.equal(flows.size, 2, summary);
  const out = runs[0].stdout + runs[0].stderr;
  assert.notEqual(runs[0].code, 0, summary + out);
  const lines = out.split("\n").filter((l) => / answered 5\d\d, which the document/.test(l));
  assert.equal(lines.length, 2, out);
  const notes = lines.find((l) => l.includes("POST /notes answered 500")) ?? "";
  assert.match(notes, /GET \/notes answered 500 too/, out);
  assert.doesNotMatch(notes, /--jobs 1|run again/, out);
  const drafts = lines.find((l) => l.includes("POST /drafts answered 500")) ?? "";
  assert.match(drafts, /--jobs 1/, out);
  assert.doesNotMatch(drafts, /POST \/notes/, out);
});

Deno.test("createRaceLines: the read of the same path refused alike explains the create", () => {
  const share = { total: 2, exercised: 2, percent: 100 };
  const item = (method: string, path: string, undocumented: number[]) => ({
    method,
    path,
    exercised: true,
    responses: [],
    undocumented,
  });
  const coverage = (items: ReturnType<typeof item>[]) => ({
    document: "a.yaml",
    operations: share,
    responses: share,
    items,
    unmatched: [],
  });
  const both = createRaceLines(
    coverage([item("POST", "/a/{s}/c", [500]), item("GET", "/a/{s}/c", [500])]),
  );
  assert.equal(both.length, 1);
  assert.ok(both[0].includes("GET /a/{s}/c answered 500 too"), both[0]);
  assert.ok(!both[0].includes("--jobs 1"), both[0]);
  const read = createRaceLines(coverage([item("POST", "/a", [500]), item("GET", "/a", [])]));
  assert.equal(read.length, 1);
  assert.ok(read[0].includes("--jobs 1"), read[0]);
});
