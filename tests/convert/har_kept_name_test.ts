/**
 * `convert har` on a UI where the user types a name for what they create and
 * the journey keeps it: the page posts `{"name": "harbour"}` to a collection,
 * the answer echoes the name beside an id the server made, and nothing later
 * deletes that item. Sent as recorded, a second run on the same instance is
 * refused (409: the server keeps names unique, which nothing recorded says).
 * Such a name is made the run's own (a var, `harbour-${RANDOM.HEX_8}`, drawn
 * once a run) everywhere it is sent and checked: the search by it, the list
 * that shows it. A name the journey deletes again stays as recorded (the
 * instance is left as it was found), and so does a name an earlier answer
 * listed (an existing row the user picked or searched for).
 */
import assert from "node:assert/strict";
import { convertHarFile, runCliTwice } from "../support/cli.ts";
import { harOf } from "../support/har_records.ts";

const API = "http://127.0.0.1:4242/api";

/** A stand-in keeping labels and boards, each name unique (409 when taken), random ids. */
function standIn() {
  const labels = new Map<string, { id: string; name: string }>();
  const boards = new Map<string, { id: string; name: string; labels: string[] }>();
  const id = () => crypto.randomUUID().replaceAll("-", "").slice(0, 16);
  return Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const path = url.pathname;
    if (req.method === "GET" && path === "/api/labels") {
      const search = url.searchParams.get("search") ?? "";
      return Response.json({ data: [...labels.values()].filter((l) => l.name.includes(search)) });
    }
    if (req.method === "POST" && path === "/api/labels") {
      const { name } = await req.json();
      if ([...labels.values()].some((l) => l.name === name)) return taken();
      const label = { name, id: id() };
      labels.set(label.id, label);
      return Response.json({ data: label });
    }
    if (req.method === "POST" && path === "/api/boards") {
      const { name, labels: ids } = await req.json();
      if ([...boards.values()].some((b) => b.name === name)) return taken();
      if (!ids.every((l: string) => labels.has(l))) return new Response(null, { status: 400 });
      const board = { id: id(), name, labels: ids };
      boards.set(board.id, board);
      return Response.json(board, { status: 201 });
    }
    const board = /^\/api\/boards\/(\w+)$/.exec(path)?.[1];
    if (req.method === "DELETE" && board && boards.delete(board)) return Response.json({});
    return new Response(null, { status: 404 });
  });
}

function taken() {
  return Response.json({ message: "already exists" }, { status: 409 });
}

const LABEL = { name: "harbour", id: "6yN4g2UNNHPXoNGr" };
const BOARD = { id: "Mapo0K1S1iROHHWN", name: "Tide tables", labels: [LABEL.id] };

/** The journey: an empty list read, a label made and searched for, a board made and deleted. */
function journey(): string {
  const json = (v: unknown) => JSON.stringify(v);
  return harOf([
    { url: `${API}/labels`, json: { data: [] } },
    {
      method: "POST",
      url: `${API}/labels`,
      body: json({ name: "harbour" }),
      json: { data: LABEL },
    },
    {
      method: "POST",
      url: `${API}/boards`,
      body: json({ name: BOARD.name, labels: BOARD.labels }),
      status: 201,
      json: BOARD,
    },
    { url: `${API}/labels`, json: { data: [LABEL] } },
    { url: `${API}/labels?search=harbour`, json: { data: [LABEL] } },
    { method: "DELETE", url: `${API}/boards/${BOARD.id}`, json: {} },
  ]);
}

/** The lines of a flow that are sent or checked, its comments left out. */
function sentLines(flow: string): string {
  return flow.split("\n").filter((l) => !l.trimStart().startsWith("#")).join("\n");
}

Deno.test("convert har: a typed name the journey keeps is made the run's own, so a second run on the same instance passes", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-kept-name-" });
  const server = standIn();
  try {
    await Deno.writeTextFile(`${dir}/ui.har`, journey());
    const flow = await convertHarFile(`${dir}/ui.har`, `${dir}/ui.yaml`);
    assert.match(flow, /harbour-\$\{RANDOM\.HEX_8\}/, flow);
    assert.doesNotMatch(sentLines(flow), /harbour(?!-\$\{RANDOM)/, flow);
    // The board the journey deletes again keeps its recorded name.
    assert.match(sentLines(flow), /name: Tide tables\n/, flow);
    const { port } = server.addr as Deno.NetAddr;
    await runCliTwice(`${dir}/ui.yaml`, `http://127.0.0.1:${port}`, flow);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("convert har: a name an earlier answer listed is an existing row's: it is sent as recorded", async () => {
  const dir = await Deno.makeTempDir({ prefix: "flowrun-har-kept-name-" });
  try {
    const har = harOf([
      { url: `${API}/labels?search=harb`, json: { data: [LABEL] } },
      {
        method: "POST",
        url: `${API}/labels`,
        body: JSON.stringify({ name: "harbour" }),
        json: { data: LABEL },
      },
    ]);
    await Deno.writeTextFile(`${dir}/ui.har`, har);
    const flow = await convertHarFile(`${dir}/ui.har`, `${dir}/ui.yaml`);
    assert.doesNotMatch(flow, /RANDOM|RUN_ID/, flow);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
