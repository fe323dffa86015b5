/**
 * `convert openapi`: a parameter named for a thing an item wraps is that
 * thing's id, not the wrapping item's. A bug tracker on FastAPI answers a
 * project with `members: [{id, joinedAt, member: {id, username}}]` and
 * removes one by `DELETE /projects/{project_id}/members/{member_id}`; the
 * converter sent the membership's own `id` (`members[0].id`) and the server,
 * which looks the account up, answered 404 "Project member not found". The
 * item holds an object named for the parameter's noun (`member` of
 * `{member_id}`), and that object has an `id`: the parameter names it, as the
 * name says, and the item's own `id` is the wrapper's.
 *
 * The stand-in runs on 127.0.0.1: a team is made with its maker's
 * membership; a member is removed by the account's id.
 */
import assert from "node:assert/strict";
import { convertAndRunSuite, serveStandIn } from "../support/openapi_suite.ts";
import { answers, body, json, text } from "../support/openapi_doc_parts.ts";

const uuid = { type: "string", format: "uuid" };
const object = (props: Record<string, unknown>) => ({
  type: "object",
  required: Object.keys(props),
  properties: props,
});
const MEMBERSHIP = object({ id: uuid, since: text, member: object({ id: uuid, username: text }) });
const TEAM = object({ id: uuid, title: text, members: { type: "array", items: MEMBERSHIP } });
const path = (name: string) => ({ name, in: "path", required: true, schema: uuid });

const document = {
  openapi: "3.0.2",
  info: { title: "Teams", version: "1" },
  paths: {
    "/teams": {
      post: {
        requestBody: body({ title: text }),
        responses: answers(object({ id: uuid, title: text })),
      },
    },
    "/teams/{team_id}": { get: { parameters: [path("team_id")], responses: answers(TEAM) } },
    "/teams/{team_id}/members/{member_id}": {
      delete: {
        parameters: [path("team_id"), path("member_id")],
        responses: { "200": { description: "OK", content: json(object({ detail: text })) } },
      },
    },
  },
};

type Membership = { id: string; since: string; member: { id: string; username: string } };

/** Teams, each made with one membership of a made-up maker; a removal names the account. */
function standIn() {
  const teams = new Map<string, { title: string; members: Membership[] }>();
  return serveStandIn(async (req) => {
    const parts = new URL(req.url).pathname.split("/").filter((p) => p !== "");
    if (req.method === "POST") {
      const id = crypto.randomUUID();
      const member = { id: crypto.randomUUID(), username: "maker" };
      const since = new Date().toISOString();
      teams.set(id, {
        title: (await req.json()).title,
        members: [{ id: crypto.randomUUID(), since, member }],
      });
      return Response.json({ id, title: teams.get(id)?.title });
    }
    const team = teams.get(parts[1]);
    if (!team) return Response.json({ detail: "Team not found" }, { status: 404 });
    if (req.method === "GET") return Response.json({ id: parts[1], ...team });
    const at = team.members.findIndex((m) => m.member.id === parts[3]);
    if (at < 0) return Response.json({ detail: "Member not found" }, { status: 404 });
    team.members.splice(at, 1);
    return Response.json({ detail: "Removed" });
  });
}

Deno.test("convert openapi: a parameter named for an object its listed item wraps is that object's id", async () => {
  const { runs, summary } = await convertAndRunSuite(document, standIn(), { runs: 2 });
  for (const run of runs) assert.equal(run.code, 0, `${summary}\n${run.stdout}\n${run.stderr}`);
  assert.match(summary, /\{member_id\} of DELETE .* \$\.json\.members\[0\]\.member\.id/, summary);
});
